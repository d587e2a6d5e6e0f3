import Foundation
import MarqueeALSA
import MarqueeCore
import Synchronization
import Testing

/// A suspended stream (ESTRPIPE) and underruns (EPIPE) are recovered in place, through real alsa-lib.
///
/// alsa-lib's own plugins can neither be suspended nor run dry, and the QEMU guest cannot suspend
/// (its root is on virtio-9p, which has no freeze/restore: the filesystem is gone after a resume).
/// So the device here is a small external I/O plugin (alsa-lib's ioplug API), compiled when the
/// test runs: it records every frame it is given, and after `suspend_after` frames it reports the
/// stream SUSPENDED, as a driver does when the system sleeps, until snd_pcm_resume is called (or,
/// with `resume_works 0`, until it is prepared again); with
/// `xrun_every` it reports an underrun (XRUN) after every so many frames. alsa-lib itself turns
/// those states into ESTRPIPE and EPIPE for the writer, exactly as it does for a card.
@Suite struct ALSAInterruptionTests {
    @Test func aSuspendedStreamIsResumedInPlaceWithOneLineAndNothingLost() throws {
        let device = try InterruptingDevice(settings: "suspend_after 12000")
        let output = device.output()
        try device.play(through: output)

        let suspended = device.log.all.filter { $0.contains("was suspended; resuming in place") }
        #expect(suspended == ["audio: ALSA 'sleeper' was suspended; resuming in place"], "\(device.log.all)")
        #expect(!device.log.all.contains { $0.contains("playing video only") }, "the device is kept, not dropped: \(device.log.all)")
        #expect(output.underrunCount == 0)
        #expect(try device.heard() == device.tone, "every frame reached the device once, in order, across the suspend")
    }

    /// A driver whose resume reports success but leaves the stream suspended: the stream is
    /// prepared instead of being resumed again and again at full speed.
    @Test func aResumeThatDoesNotResumeIsFollowedByAPrepare() throws {
        let device = try InterruptingDevice(settings: "suspend_after 12000 resume_works 0")
        let output = device.output()
        try device.play(through: output)

        #expect(device.log.all.filter { $0.contains("was suspended") }.count == 1, "\(device.log.all)")
        #expect(try device.heard() == device.tone)
    }

    @Test func underrunsAreRecoveredInPlaceAndLoggedAtTheFirstTenthAndHundredth() throws {
        // 5 ms periods: 48000 frames go in 200 writes of 240, each followed by an underrun.
        let device = try InterruptingDevice(settings: "xrun_every 240")
        let output = device.output(periodTime: MediaTime(5, per: 1000), bufferTime: MediaTime(20, per: 1000))
        try device.play(through: output)

        #expect(output.underrunCount >= 100 && output.underrunCount < 200, "\(output.underrunCount)")
        let lines = device.log.all.filter { $0.contains("ran dry") }
        #expect(lines == [1, 10, 100].map { "audio: ALSA 'sleeper' ran dry (underrun \($0)); recovering in place" }, "\(device.log.all)")
        #expect(!device.log.all.contains { $0.contains("playing video only") }, "\(device.log.all)")
        #expect(try device.heard() == device.tone, "every frame reached the device once, in order, across the underruns")
    }
}

/// The test device built and configured in a folder of its own, and one second of a stereo tone
/// to write to it.
private final class InterruptingDevice {
    let folder: URL
    let record: URL
    let configuration: ALSAConfiguration
    let log = LogLines()
    let tone = stereoSine(frames: 48000, frequency: 1000, rate: 48000)

    init(settings: String) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-alsa-interrupt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let plugin = try InterruptingPlugin.build(in: folder)
        record = folder.appendingPathComponent("record.raw")
        configuration = try ALSAConfiguration(text: """
            pcm_type.marqueeinterrupt { lib "\(plugin.path)" }
            pcm.sleeper { type marqueeinterrupt file "\(record.path)" \(settings) }
            """)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    func output(periodTime: MediaTime = ALSAOutputOptions.defaultPeriodTime,
                bufferTime: MediaTime = ALSAOutputOptions.defaultBufferTime) -> ALSAOutput {
        ALSAOutput(options: ALSAOutputOptions(device: "sleeper", bufferTime: bufferTime, periodTime: periodTime, preferredRate: 48000,
                                              retryInterval: MediaTime(1, per: 10), configuration: configuration),
                   log: log.sink)
    }

    /// Writes the tone in 0.05 s chunks on a thread of its own, as the audio thread does, and
    /// waits 10 s at most: a writer stuck retrying fails the test instead of hanging the run.
    func play(through output: ALSAOutput) throws {
        #expect(log.all.first?.contains("ALSA 'sleeper' 48000 Hz 2 ch FLOAT_LE") == true, "\(log.all)")
        let done = DispatchSemaphore(value: 0)
        let failure = Mutex<String?>(nil)
        let tone = tone
        Thread.detachNewThread {
            do {
                for chunk in stride(from: 0, to: tone.count, by: 4800) {
                    try output.write(Array(tone[chunk..<min(tone.count, chunk + 4800)]))
                }
            } catch {
                failure.withLock { $0 = "\(error)" }
            }
            done.signal()
        }
        let finished = done.wait(timeout: .now() + 10) == .success
        #expect(finished, "one second of sound, written to a device that never blocks, took over 10 s: \(log.all.suffix(3))")
        #expect(failure.withLock { $0 } == nil)
    }

    /// What the device recorded, as floats.
    func heard() throws -> [Float] {
        ALSACapture.floats(try [UInt8](Data(contentsOf: record)))
    }
}

/// The test device: an ioplug PCM (stereo float at 48 kHz) that records what it is given and
/// suspends once or runs dry every so often.
private enum InterruptingPlugin {
    static func build(in folder: URL) throws -> URL {
        let source = folder.appendingPathComponent("interrupting-plugin.c")
        let library = folder.appendingPathComponent("libasound_module_pcm_marqueeinterrupt.so")
        try code.write(to: source, atomically: true, encoding: .utf8)
        let flags = try run("/usr/bin/env", ["pkg-config", "--cflags", "--libs", "alsa"])
            .split(separator: " ").map(String.init).filter { !$0.isEmpty }
        // The Swift toolchain ships clang, so a C compiler is there wherever the package builds.
        // PIC: alsa-lib's plugin macros then export the versioned open symbol a shared object needs.
        _ = try run("/usr/bin/env", ["clang", "-shared", "-fPIC", "-DPIC", "-O1", "-o", library.path, source.path] + flags)
        return library
    }

    private static func run(_ tool: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw PluginBuildError(message: "\(arguments.prefix(2).joined(separator: " ")) failed: \(text)")
        }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    struct PluginBuildError: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    private static let code = #"""
    #include <errno.h>
    #include <poll.h>
    #include <stdio.h>
    #include <stdlib.h>
    #include <string.h>
    #include <unistd.h>
    #include <alsa/asoundlib.h>
    #include <alsa/pcm_external.h>

    typedef struct {
        snd_pcm_ioplug_t io;
        int fds[2];
        FILE *record;
        snd_pcm_uframes_t consumed;    /* frames the "hardware" has played since prepare */
        snd_pcm_uframes_t transferred; /* frames given to the device in all */
        long suspend_after;           /* 0: never */
        int has_suspended;
        long xrun_every;              /* 0: never */
        long resume_works;            /* 0: snd_pcm_resume "succeeds" but the stream stays suspended */
        snd_pcm_uframes_t since_xrun;
    } sleeper_t;

    static int sleeper_start(snd_pcm_ioplug_t *io) { return 0; }
    static int sleeper_stop(snd_pcm_ioplug_t *io) { return 0; }

    /* Plays at most a period per look, so the pointer never wraps a whole buffer unseen. */
    static snd_pcm_sframes_t sleeper_pointer(snd_pcm_ioplug_t *io) {
        sleeper_t *s = io->private_data;
        snd_pcm_uframes_t pending = io->appl_ptr - s->consumed;
        if (pending > io->period_size) pending = io->period_size;
        s->consumed += pending;
        return s->consumed % io->buffer_size;
    }

    static snd_pcm_sframes_t sleeper_transfer(snd_pcm_ioplug_t *io, const snd_pcm_channel_area_t *areas,
                                              snd_pcm_uframes_t offset, snd_pcm_uframes_t size) {
        sleeper_t *s = io->private_data;
        const char *bytes = (const char *)areas[0].addr + (areas[0].first + areas[0].step * offset) / 8;
        fwrite(bytes, 8, size, s->record);
        fflush(s->record);
        s->transferred += size;
        s->since_xrun += size;
        if (s->suspend_after > 0 && !s->has_suspended && s->transferred >= (snd_pcm_uframes_t)s->suspend_after) {
            s->has_suspended = 1;
            snd_pcm_ioplug_set_state(io, SND_PCM_STATE_SUSPENDED);
        } else if (s->xrun_every > 0 && s->since_xrun >= (snd_pcm_uframes_t)s->xrun_every) {
            s->since_xrun = 0;
            snd_pcm_ioplug_set_state(io, SND_PCM_STATE_XRUN);
        }
        return size;
    }

    static int sleeper_prepare(snd_pcm_ioplug_t *io) {
        sleeper_t *s = io->private_data;
        s->consumed = 0;
        return 0;
    }

    /* The driver resumes where it was: the stream waits to be started again. */
    static int sleeper_resume(snd_pcm_ioplug_t *io) {
        sleeper_t *s = io->private_data;
        if (s->resume_works) snd_pcm_ioplug_set_state(io, SND_PCM_STATE_PREPARED);
        return 0;
    }

    static int sleeper_close(snd_pcm_ioplug_t *io) {
        sleeper_t *s = io->private_data;
        fclose(s->record);
        close(s->fds[0]);
        close(s->fds[1]);
        free(s);
        return 0;
    }

    static const snd_pcm_ioplug_callback_t callbacks = {
        .start = sleeper_start, .stop = sleeper_stop, .pointer = sleeper_pointer,
        .transfer = sleeper_transfer, .prepare = sleeper_prepare, .resume = sleeper_resume,
        .close = sleeper_close,
    };

    SND_PCM_PLUGIN_DEFINE_FUNC(marqueeinterrupt)
    {
        snd_config_iterator_t i, next;
        const char *path = NULL;
        long suspend_after = 0, xrun_every = 0, resume_works = 1;
        snd_config_for_each(i, next, conf) {
            snd_config_t *n = snd_config_iterator_entry(i);
            const char *id;
            if (snd_config_get_id(n, &id) < 0) continue;
            if (!strcmp(id, "comment") || !strcmp(id, "type") || !strcmp(id, "hint")) continue;
            if (!strcmp(id, "file") && snd_config_get_string(n, &path) >= 0) continue;
            if (!strcmp(id, "suspend_after") && snd_config_get_integer(n, &suspend_after) >= 0) continue;
            if (!strcmp(id, "xrun_every") && snd_config_get_integer(n, &xrun_every) >= 0) continue;
            if (!strcmp(id, "resume_works") && snd_config_get_integer(n, &resume_works) >= 0) continue;
            return -EINVAL;
        }
        if (stream != SND_PCM_STREAM_PLAYBACK || !path) return -EINVAL;
        sleeper_t *s = calloc(1, sizeof *s);
        if (!s) return -ENOMEM;
        if (pipe(s->fds) < 0 || !(s->record = fopen(path, "wb"))) { free(s); return -errno; }
        s->suspend_after = suspend_after;
        s->xrun_every = xrun_every;
        s->resume_works = resume_works;
        s->io.version = SND_PCM_IOPLUG_VERSION;
        s->io.name = "Marquee interrupting test device";
        s->io.poll_fd = s->fds[1];   /* a pipe's write end: always ready */
        s->io.poll_events = POLLOUT;
        s->io.callback = &callbacks;
        s->io.private_data = s;
        int err = snd_pcm_ioplug_create(&s->io, name, stream, mode);
        if (err < 0) { fclose(s->record); close(s->fds[0]); close(s->fds[1]); free(s); return err; }
        static const unsigned int accesses[] = { SND_PCM_ACCESS_RW_INTERLEAVED };
        static const unsigned int formats[] = { SND_PCM_FORMAT_FLOAT_LE };
        snd_pcm_ioplug_set_param_list(&s->io, SND_PCM_IOPLUG_HW_ACCESS, 1, accesses);
        snd_pcm_ioplug_set_param_list(&s->io, SND_PCM_IOPLUG_HW_FORMAT, 1, formats);
        snd_pcm_ioplug_set_param_minmax(&s->io, SND_PCM_IOPLUG_HW_CHANNELS, 2, 2);
        snd_pcm_ioplug_set_param_minmax(&s->io, SND_PCM_IOPLUG_HW_RATE, 48000, 48000);
        snd_pcm_ioplug_set_param_minmax(&s->io, SND_PCM_IOPLUG_HW_PERIOD_BYTES, 1024, 1 << 20);
        snd_pcm_ioplug_set_param_minmax(&s->io, SND_PCM_IOPLUG_HW_PERIODS, 2, 1024);
        *pcmp = s->io.pcm;
        return 0;
    }

    SND_PCM_PLUGIN_SYMBOL(marqueeinterrupt);
    """#
}
