import Foundation
import MarqueeCore

/// `--audio alsa[:PCM]`: the engine's audio on an ALSA PCM, written from the audio thread.
///
/// The PCM opens once and stays open across items, loops and trims (the engine converts every
/// item to `format`). Writes are non-blocking calls in a loop that sleeps about a period while the
/// buffer is full, so pause and shutdown never wait on ALSA. Underruns and suspends are recovered
/// in place. A device that cannot be opened or vanishes is logged once; the audio is then paced in
/// real time and dropped (video plays on, on the monotonic clock) while the PCM is looked for again
/// every `retryInterval`, and sound resumes when it comes back.
///
/// Every ALSA call happens under `lock`, from whichever thread asks (the audio thread writes, the
/// present thread reads the position and pauses), so calls never overlap.
public final class ALSAOutput: AudioOutput, @unchecked Sendable {
    public let format: AudioFormat
    public let options: ALSAOutputOptions
    private let log: @Sendable (String) -> Void
    private let lock = MonotonicCondition()

    // Under `lock`.
    private var pcm: ALSAPCM?
    /// `close` was called: the run is over, nothing is opened again.
    private var isClosed = false
    /// Frames accepted from the engine so far, heard or (without a device) paced and dropped.
    private var streamFrames: Int64 = 0
    /// The stream frame the current PCM session's first frame is; frames it has accepted since.
    private var sessionBase: Int64 = 0
    private var sessionWritten: Int64 = 0
    private var isPaused = false
    private var pauseKind: PauseKind?
    /// Pause by dropping: the last buffer's worth of bytes written, and what to write again on resume.
    private var recentBytes: [UInt8] = []
    private var primeAgain: [UInt8] = []
    private var nextRetry = ContinuousClock.now
    /// Without a device, audio is consumed at the rate it would play: this far ahead.
    private var pacedUntil: ContinuousClock.Instant?
    private var lastProblem: String?
    /// A reopened PCM is announced once it has taken two buffers of audio, not when it merely
    /// opened: a device can open, take a buffer, and still fail (one line per outage, not per retry).
    private var announceOnFirstWrite = false
    private var encoded: [UInt8] = []
    public private(set) var underrunCount = 0
    /// The current suspend has been logged: a resume the driver answers with EAGAIN is retried
    /// without another line.
    private var suspendReported = false

    private enum PauseKind { case hardware, dropped, notRunning }

    /// Opens `options.device`; when it cannot, logs one line and starts without it (video-only),
    /// in the preferred format, looking for it again every `retryInterval`.
    public init(options: ALSAOutputOptions, log: @escaping @Sendable (String) -> Void) {
        self.options = options
        self.log = log
        do {
            let pcm = try ALSAPCM(name: options.device, options: options)
            self.pcm = pcm
            format = AudioFormat(sampleRate: pcm.setup.sampleRate, channelCount: pcm.setup.channelCount)
            log("audio: ALSA '\(options.device)' \(pcm.setup)")
        } catch {
            format = AudioFormat(sampleRate: max(1, options.preferredRate), channelCount: max(1, options.preferredChannels))
            lastProblem = error.description
            log("audio: \(error); playing video only, trying again every \(Self.plain(options.retryInterval)) s")
            nextRetry = ContinuousClock.now + Self.duration(options.retryInterval)
        }
    }

    /// What the device agreed to; nil while there is no device.
    public var setup: ALSAHardwareSetup? { lock.withLock { pcm?.setup } }

    public func write(_ samples: [Float]) throws {
        let channels = format.channelCount
        let total = samples.count / channels
        var done = 0
        lock.lock()
        defer { lock.unlock() }
        while done < total {
            if isPaused {
                _ = lock.wait(seconds: 0.05)
                continue
            }
            if isClosed { return }
            if pcm == nil { reopenIfDue() }
            guard let pcm else {
                done += pace(frames: total - done)
                continue
            }
            do {
                if !primeAgain.isEmpty { try writePrimeAgain(to: pcm) }
                let chunk = min(total - done, max(1, pcm.setup.periodFrames))
                pcm.setup.sampleFormat.encode(samples[(done * channels)..<((done + chunk) * channels)], into: &encoded)
                let outcome = try encoded.withUnsafeBytes { bytes throws(ALSAError) in try pcm.write(bytes, frames: chunk) }
                switch outcome {
                case .written(let frames):
                    if announceOnFirstWrite && sessionWritten + Int64(frames) >= Int64(2 * pcm.setup.bufferFrames) {
                        announceOnFirstWrite = false
                        lastProblem = nil
                        log("audio: ALSA '\(options.device)' is back: \(pcm.setup)")
                    }
                    done += frames
                    suspendReported = false
                    accept(frames: frames, bytes: frames * pcm.setup.bytesPerFrame)
                case .wouldBlock:
                    _ = lock.wait(seconds: waitForRoom(on: pcm, frames: chunk))
                case .underrun, .suspended:
                    reportInterruption(outcome)
                    if try !pcm.recover(from: outcome) { _ = lock.wait(seconds: 0.1) }
                }
            } catch {
                lose(pcm, because: error)
            }
        }
    }

    /// Frames of the stream heard by now: frames written minus the device's delay, while it runs.
    public func framesPlayed() -> Int64? {
        lock.withLock {
            guard let pcm, !isPaused, primeAgain.isEmpty, pcm.isRunning, let delay = try? pcm.delay() else { return nil }
            return sessionBase + sessionWritten - Int64(delay)
        }
    }

    public func setPaused(_ paused: Bool) {
        lock.withLock {
            guard paused != isPaused else { return }
            isPaused = paused
            if let pcm {
                do {
                    if paused { try pause(pcm) } else { try resume(pcm) }
                } catch {
                    lose(pcm, because: error)
                }
            }
            lock.broadcast()
        }
    }

    public func close() {
        lock.withLock {
            isClosed = true
            // Its one owner lets it go: ALSAPCM's deinit closes the PCM.
            pcm = nil
            primeAgain = []
            recentBytes = []
            lock.broadcast()
        }
    }

    public func drain() {
        lock.withLock {
            guard let pcm, !isPaused else { return }
            do {
                if !primeAgain.isEmpty { try writePrimeAgain(to: pcm) }
                try pcm.drain()
            } catch {
                log("audio: \(error)")
            }
        }
    }

    // MARK: Under the lock

    private func accept(frames: Int, bytes: Int) {
        streamFrames += Int64(frames)
        sessionWritten += Int64(frames)
        guard let pcm, keepsRecentBytes(pcm) else { return }
        recentBytes.append(contentsOf: encoded[0..<bytes])
        let limit = pcm.setup.bufferFrames * pcm.setup.bytesPerFrame
        if recentBytes.count > limit { recentBytes.removeFirst(recentBytes.count - limit) }
    }

    private func keepsRecentBytes(_ pcm: ALSAPCM) -> Bool {
        !pcm.setup.canPause || options.pausesByDropping
    }

    /// How long until a chunk fits: the missing frames at the device rate, at least 1 ms, at most a period.
    private func waitForRoom(on pcm: ALSAPCM, frames: Int) -> Double {
        let rate = Double(pcm.setup.sampleRate)
        let period = Double(pcm.setup.periodFrames) / rate
        guard let available = try? pcm.available() else { return period }
        let missing = Double(max(0, min(frames, pcm.setup.periodFrames) - available))
        return min(period, max(0.001, missing / rate))
    }

    private func pause(_ pcm: ALSAPCM) throws(ALSAError) {
        guard pcm.isRunning else {
            // Not started yet (or run dry): nothing is sounding, writes just wait.
            pauseKind = .notRunning
            return
        }
        if pcm.setup.canPause && !options.pausesByDropping {
            try pcm.pause(true)
            pauseKind = .hardware
            return
        }
        // No hardware pause: keep what was queued and not heard, drop it, and write it again on
        // resume. The session restarts where the sound stopped, so positions stay continuous.
        let unheard = min(max(0, try pcm.delay()), recentBytes.count / pcm.setup.bytesPerFrame)
        primeAgain = Array(recentBytes.suffix(unheard * pcm.setup.bytesPerFrame))
        try pcm.dropAndPrepare()
        sessionBase += sessionWritten - Int64(unheard)
        sessionWritten = 0
        recentBytes = []
        pauseKind = .dropped
    }

    private func resume(_ pcm: ALSAPCM) throws {
        defer { pauseKind = nil }
        switch pauseKind {
        case .hardware:
            try pcm.pause(false)
        case .dropped:
            try writePrimeAgain(to: pcm)
            if pcm.isPrepared, sessionWritten > 0 { try pcm.start() }
        case .notRunning, nil:
            break
        }
    }

    /// The dropped, unheard audio goes back first (it fits: it came out of one buffer).
    private func writePrimeAgain(to pcm: ALSAPCM) throws {
        let frames = primeAgain.count / pcm.setup.bytesPerFrame
        guard frames > 0 else { primeAgain = []; return }
        let outcome = try primeAgain.withUnsafeBytes { bytes throws(ALSAError) in try pcm.write(bytes, frames: frames) }
        if case .written(let written) = outcome {
            sessionWritten += Int64(written)
            primeAgain.removeFirst(written * pcm.setup.bytesPerFrame)
        } else {
            primeAgain = []
        }
    }

    /// One line per suspend; for underruns the 1st, 10th, 100th ..., so a device that keeps
    /// running dry is in the journal without flooding it.
    private func reportInterruption(_ outcome: ALSAWriteOutcome) {
        if outcome == .suspended {
            if !suspendReported { log("audio: ALSA '\(options.device)' was suspended; resuming in place") }
            suspendReported = true
            return
        }
        underrunCount += 1
        var mark = 1
        while mark < underrunCount { mark *= 10 }
        if mark == underrunCount {
            log("audio: ALSA '\(options.device)' ran dry (underrun \(underrunCount)); recovering in place")
        }
    }

    /// The device failed: one line, then video-only until it is back.
    private func lose(_ pcm: ALSAPCM, because error: Error) {
        let problem = "\(error)"
        self.pcm = nil
        primeAgain = []
        recentBytes = []
        pauseKind = nil
        if problem != lastProblem {
            log("audio: \(problem); playing video only, trying again every \(Self.plain(options.retryInterval)) s")
        }
        lastProblem = problem
        nextRetry = ContinuousClock.now + Self.duration(options.retryInterval)
    }

    private func reopenIfDue() {
        let now = ContinuousClock.now
        guard now >= nextRetry else { return }
        nextRetry = now + Self.duration(options.retryInterval)
        do {
            let reopened = try ALSAPCM(name: options.device, options: options)
            guard reopened.setup.sampleRate == format.sampleRate, reopened.setup.channelCount == format.channelCount else {
                let problem = "ALSA '\(options.device)' came back as \(reopened.setup), not the \(format) playback started with"
                if problem != lastProblem { log("audio: \(problem); playing video only") }
                lastProblem = problem
                return
            }
            pcm = reopened
            sessionBase = streamFrames
            sessionWritten = 0
            pacedUntil = nil
            announceOnFirstWrite = true
        } catch {
            // Already reported when it went missing; retrying quietly.
        }
    }

    /// No device: consume up to a period of audio at the rate it would play, so the audio thread
    /// keeps its place in the stream and nothing spins.
    private func pace(frames: Int) -> Int {
        let rate = Double(format.sampleRate)
        let chunk = min(frames, max(1, Int(rate * options.periodTime.seconds)))
        let now = ContinuousClock.now
        var until = pacedUntil ?? now
        if until < now { until = now }
        let lead = Self.duration(options.bufferTime)
        if until - now > lead {
            _ = lock.wait(seconds: Self.seconds(until - now - lead))
            return 0
        }
        pacedUntil = until + .nanoseconds(Int64(Double(chunk) / rate * 1e9))
        streamFrames += Int64(chunk)
        return chunk
    }

    /// `2`, `0.5`.
    static func plain(_ time: MediaTime) -> String {
        let value = time.seconds
        return value == value.rounded() ? String(Int64(value)) : String(value)
    }

    static func duration(_ time: MediaTime) -> Duration {
        .nanoseconds(time.ticks(timescale: 1_000_000_000, rounding: .toNearestOrAwayFromZero))
    }

    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
