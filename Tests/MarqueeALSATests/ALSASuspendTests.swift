import Foundation
import MarqueeALSA
import MarqueeCore
import Testing

/// A suspended stream (ESTRPIPE) is recovered in place, through real alsa-lib.
///
/// alsa-lib's own plugins cannot be suspended, and the QEMU guest cannot suspend either (its root
/// is on virtio-9p, which has no freeze/restore: the filesystem is gone after a resume). So the
/// device here is a small external I/O plugin (alsa-lib's ioplug API), compiled when the test
/// runs: it records every frame it is given, and after `suspend_after` frames it reports the
/// stream SUSPENDED, as a driver does when the system sleeps, until snd_pcm_resume is called.
/// alsa-lib itself turns that state into ESTRPIPE for the writer, exactly as it does for a card.
@Suite struct ALSASuspendTests {
    @Test func aSuspendedStreamIsResumedInPlaceWithOneLineAndNothingLost() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-alsa-suspend-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let plugin = try SuspendingPlugin.build(in: folder)
        let record = folder.appendingPathComponent("record.raw")
        let configuration = try ALSAConfiguration(text: """
            pcm_type.marqueesuspend { lib "\(plugin.path)" }
            pcm.sleeper { type marqueesuspend file "\(record.path)" suspend_after 12000 }
            """)
        let log = LogLines()
        let output = ALSAOutput(options: ALSAOutputOptions(device: "sleeper", preferredRate: 48000,
                                                           retryInterval: MediaTime(1, per: 10), configuration: configuration),
                                log: log.sink)
        #expect(log.all.first?.contains("ALSA 'sleeper' 48000 Hz 2 ch FLOAT_LE") == true, "\(log.all)")
        let tone = stereoSine(frames: 48000, frequency: 1000, rate: 48000)
        let started = ContinuousClock.now
        for chunk in stride(from: 0, to: tone.count, by: 4800) {
            try output.write(Array(tone[chunk..<min(tone.count, chunk + 4800)]))
        }
        #expect(ContinuousClock.now - started < .seconds(10), "one second of sound, written to a device that never blocks")

        let suspended = log.all.filter { $0.contains("was suspended; resuming in place") }
        #expect(suspended == ["audio: ALSA 'sleeper' was suspended; resuming in place"], "\(log.all)")
        #expect(!log.all.contains { $0.contains("playing video only") }, "the device is kept, not dropped: \(log.all)")
        #expect(output.underrunCount == 0)

        let bytes = try [UInt8](Data(contentsOf: record))
        let heard = stride(from: 0, to: bytes.count - 3, by: 4).map { at in
            Float(bitPattern: UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24)
        }
        #expect(heard.count == tone.count, "every frame reached the device once")
        #expect(heard == tone, "in order, none repeated or lost across the suspend")
    }
}

/// The test device: an ioplug PCM (stereo float at 48 kHz) that records what it is given and
/// suspends once.
private enum SuspendingPlugin {
    static func build(in folder: URL) throws -> URL {
        let source = folder.appendingPathComponent("suspend-plugin.c")
        let library = folder.appendingPathComponent("libasound_module_pcm_marqueesuspend.so")
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
        long suspend_after;
        int has_suspended;
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
        if (!s->has_suspended && s->transferred >= (snd_pcm_uframes_t)s->suspend_after) {
            s->has_suspended = 1;
            snd_pcm_ioplug_set_state(io, SND_PCM_STATE_SUSPENDED);
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
        snd_pcm_ioplug_set_state(io, SND_PCM_STATE_PREPARED);
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

    SND_PCM_PLUGIN_DEFINE_FUNC(marqueesuspend)
    {
        snd_config_iterator_t i, next;
        const char *path = NULL;
        long suspend_after = 0;
        snd_config_for_each(i, next, conf) {
            snd_config_t *n = snd_config_iterator_entry(i);
            const char *id;
            if (snd_config_get_id(n, &id) < 0) continue;
            if (!strcmp(id, "comment") || !strcmp(id, "type") || !strcmp(id, "hint")) continue;
            if (!strcmp(id, "file") && snd_config_get_string(n, &path) >= 0) continue;
            if (!strcmp(id, "suspend_after") && snd_config_get_integer(n, &suspend_after) >= 0) continue;
            return -EINVAL;
        }
        if (stream != SND_PCM_STREAM_PLAYBACK || !path) return -EINVAL;
        sleeper_t *s = calloc(1, sizeof *s);
        if (!s) return -ENOMEM;
        if (pipe(s->fds) < 0 || !(s->record = fopen(path, "wb"))) { free(s); return -errno; }
        s->suspend_after = suspend_after;
        s->io.version = SND_PCM_IOPLUG_VERSION;
        s->io.name = "Marquee suspend test device";
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

    SND_PCM_PLUGIN_SYMBOL(marqueesuspend);
    """#
}
