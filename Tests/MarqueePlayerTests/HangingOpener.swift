import Foundation
import MarqueeCore

/// `ScriptedMedia`, except that opening a URL in `hanging` blocks until `release()`, as open(2) on a
/// hung NFS path or a FIFO with no writer does. Released, the open returns a reader: the late
/// result a player that gave up must drop harmlessly.
final class HangingOpener: MediaOpening, @unchecked Sendable {
    private let scripted: ScriptedMedia
    private let hanging: Set<String>
    private let gate = NSCondition()
    private var released = false
    private var blocked = 0

    init(_ scripts: [String: ScriptedMedia.Script], hanging: Set<String>) {
        scripted = ScriptedMedia(scripts)
        self.hanging = hanging
    }

    func open(_ url: String) throws -> MediaReader {
        if hanging.contains(url) {
            gate.lock()
            blocked += 1
            gate.broadcast()
            while !released { gate.wait() }
            gate.unlock()
            return ScriptedReader(url: url, frameCount: 3, frameDuration: MediaTime(1, per: 25), still: false, audio: false)
        }
        return try scripted.open(url)
    }

    /// How many opens have blocked in here so far.
    var blockedCount: Int { gate.withLock { blocked } }

    /// Waits until an open is blocked in here.
    func waitUntilBlocked(seconds: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        gate.lock()
        defer { gate.unlock() }
        while blocked == 0 { if !gate.wait(until: deadline) { return false } }
        return true
    }

    /// Lets every blocked open return (a test's cleanup: no thread outlives it).
    func release() {
        gate.lock()
        released = true
        gate.broadcast()
        gate.unlock()
    }
}
