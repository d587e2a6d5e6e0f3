import Foundation
import MarqueeCore
import MarqueeTestSupport
@testable import MarqueeControl

/// A player as the control service sees it: a status to read, a refusal rule to set, and a record
/// of what it was sent. The engine itself is driven through the socket by the CLI tests.
final class StandInPlayer: ControlledPlayer, @unchecked Sendable {
    private let lock = NSLock()
    private var document = StatusDocument.sample()
    private var refusing: (@Sendable (ControlAction) -> String?) = { _ in nil }
    private(set) var sent: [(ControlAction, CommandSource)] = []
    private(set) var seeks: [MediaTime] = []

    init(itemCount: Int = 2, seekable: Bool = true) {
        document.itemCount = itemCount
        document.item = StatusDocument.Item(index: 0, url: "/media/a.mp4", positionLabel: "0:00", durationLabel: "0:03", remainingLabel: "-0:03",
                                            seekable: seekable, stillImage: false, playbackLikelyToKeepUp: true, playbackBufferEmpty: false,
                                            playbackBufferFull: true, loadedTimeRanges: [], seekableTimeRanges: [])
    }

    func refuse(_ rule: @escaping @Sendable (ControlAction) -> String?) { lock.withLock { refusing = rule } }
    var actions: [ControlAction] { lock.withLock { sent.map(\.0) } }
    var sources: [CommandSource] { lock.withLock { sent.map(\.1) } }
    var seekTimes: [MediaTime] { lock.withLock { seeks } }

    func statusDocument() -> StatusDocument { lock.withLock { document } }
    func refusal(of action: ControlAction) -> String? { lock.withLock { refusing }(action) }
    func send(_ action: ControlAction, from source: CommandSource) { lock.withLock { sent.append((action, source)) } }

    func seek(to time: MediaTime, toleranceBefore: MediaTime, toleranceAfter: MediaTime, from source: CommandSource?,
              completion: @escaping @Sendable (Bool) -> Void) {
        lock.withLock { seeks.append(time) }
        completion(true)
    }

    /// The size of the picture `screenshot` gives.
    var screenSize: PixelSize {
        get { lock.withLock { shownSize } }
        set { lock.withLock { shownSize = newValue } }
    }
    private var shownSize = PixelSize(width: 4, height: 2)

    func screenshot(_ completion: @escaping @Sendable (Canvas?) -> Void) {
        completion(Canvas(size: screenSize))
    }
}

/// The program around the player: a load answer to set, PNGs as a few bytes, one audio device.
final class StandInHost: ControlHost, @unchecked Sendable {
    private let lock = NSLock()
    private var answer: Result<LoadOutcome, LoadRejection> = .success(LoadOutcome(itemCount: 1))
    private(set) var loads: [ControlLoad] = []
    /// Told before `load` returns, as a load with nothing to download is; nil: kept for `handOver`.
    private var handsOverAtOnce: LoadHandOver?
    private var pendingHandOvers: [@Sendable (LoadHandOver) -> Void] = []

    func answerLoads(with answer: Result<LoadOutcome, LoadRejection>, handingOverAtOnce: LoadHandOver? = nil) {
        lock.withLock {
            self.answer = answer
            handsOverAtOnce = handingOverAtOnce
        }
    }
    var loaded: [ControlLoad] { lock.withLock { loads } }

    /// What became of the loads whose hand-over was kept, oldest first.
    func handOver(_ outcome: LoadHandOver) {
        let waiting = lock.withLock { pendingHandOvers.isEmpty ? nil : pendingHandOvers.removeFirst() }
        waiting?(outcome)
    }

    func load(_ load: ControlLoad, handedOver: @escaping @Sendable (LoadHandOver) -> Void) -> Result<LoadOutcome, LoadRejection> {
        lock.lock()
        loads.append(load)
        if handsOverAtOnce == nil { pendingHandOvers.append(handedOver) }
        let answer = self.answer
        let atOnce = handsOverAtOnce
        lock.unlock()
        if let atOnce { handedOver(atOnce) }
        return answer
    }

    /// A file's first bytes, not a whole one: the service only carries them, at the scaled size.
    func image(_ canvas: Canvas, width: Int?, format: ImageFileFormat) throws -> EncodedImage {
        EncodedImage(bytes: format == .png ? [0x89, 0x50, 0x4E, 0x47] : [0xFF, 0xD8, 0xFF], size: canvas.size.thumbnail(width: width ?? canvas.size.width),
                     format: format)
    }
    func saveScreenshot(_ png: [UInt8], named name: String) throws -> String { "/var/lib/marquee/screenshots/\(name)" }
    func deviceStatus() -> DeviceStatus { DeviceStatus(audio: StatusDocument.Audio(device: "hw:0,0")) }
}

/// Every line the service sends, by peer, parsed as JSON objects.
final class RecordingTransport: ControlTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [(peer: Int, line: String)] = []

    func send(_ line: String, to peer: Int) { lock.withLock { lines.append((peer, line)) } }

    func objects(for peer: Int) -> [[String: Any]] {
        lock.withLock { lines.filter { $0.peer == peer }.map(\.line) }
            .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// Waits for the `count`th line to `peer` (a load or screenshot is answered from a queue).
    func waitForObjects(_ count: Int, for peer: Int, seconds: Double = 5) -> [[String: Any]] {
        let deadline = Date().addingTimeInterval(seconds)
        while objects(for: peer).count < count, Date() < deadline { usleep(2000) }
        return objects(for: peer)
    }
}
