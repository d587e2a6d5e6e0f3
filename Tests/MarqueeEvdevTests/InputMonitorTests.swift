import Foundation
import MarqueeCore
import Synchronization
import Testing
@testable import MarqueeEvdev

/// The monitor's lifecycle and failure lines on this host, which has no input devices: a missing
/// directory, and a watched directory where a node appears that is not an evdev device (open works,
/// libevdev refuses it), as a node udev has not finished would. Real devices, grabs and hotplug
/// are proven in the guest (Deploy/vm/input-test.sh).
@Suite struct InputMonitorTests {
    final class Lines: Sendable {
        private let lines = Mutex<[String]>([])
        func append(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }

        func wait(seconds: Double, until done: ([String]) -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if done(all) { return true }
                Thread.sleep(forTimeInterval: 0.02)
            }
            return done(all)
        }
    }

    /// One loop for the suite's monitors, as a session has one for all its sources.
    static let events: ControlPlaneLoop = {
        let loop = try! ControlPlaneLoop(name: "test.input")
        loop.start()
        return loop
    }()

    private func monitor(directory: String, selection: InputDeviceSelection = .auto(boundCodes: KeyMap.default.boundCodes),
                         lines: Lines) -> InputMonitor {
        InputMonitor(options: .init(selection: selection, keyMap: .default, grab: true, directory: directory),
                     events: Self.events, deliver: { action, source in lines.append("command \(action) from \(source)") },
                     log: { _, line in lines.append(line) })
    }

    private func temporaryDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-input-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func withoutTheDirectoryItSaysSoOnceAndStopsCleanly() {
        let lines = Lines()
        let monitor = monitor(directory: "/nonexistent/input", lines: lines)
        monitor.start()
        monitor.stop()
        monitor.stop()
        #expect(lines.all == ["input: /nonexistent/input does not exist; no keys will be read"])
    }

    @Test func anEmptyDirectoryIsWatchedAndStopEndsTheThreadAtOnce() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let lines = Lines()
        let monitor = monitor(directory: directory, lines: lines)
        monitor.start()
        let begin = ContinuousClock.now
        monitor.stop()
        #expect(ContinuousClock.now - begin < .seconds(1))
        #expect(lines.all == ["input: no device has a mapped key yet; keypads and remotes plugged in later are read"])
    }

    @Test func aNamedDeviceThatIsMissingIsOneLine() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let lines = Lines()
        let monitor = monitor(directory: directory, selection: .named(["Front Keypad"]), lines: lines)
        monitor.start()
        monitor.stop()
        #expect(lines.all == ["input: no device matches 'Front Keypad'; it is read when it appears"])
    }

    /// A node that appears but cannot be read is retried quietly for the retry window, then named
    /// once with the cause; its removal afterwards is silent (it was never added).
    @Test func anUnreadableNodeThatAppearsIsRetriedThenReportedOnce() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let lines = Lines()
        let monitor = monitor(directory: directory, lines: lines)
        monitor.start()
        #expect(FileManager.default.createFile(atPath: directory + "/event3", contents: Data("not a device".utf8)))
        // Not an event node: ignored without a word.
        #expect(FileManager.default.createFile(atPath: directory + "/mice", contents: nil))
        let reported = lines.wait(seconds: 10) { $0.contains { $0.hasPrefix("input: cannot read \(directory)/event3: ") } }
        #expect(reported, "\(lines.all)")
        try FileManager.default.removeItem(atPath: directory + "/event3")
        Thread.sleep(forTimeInterval: 0.2)
        monitor.stop()
        #expect(lines.all.count == 2, "\(lines.all)")
    }
}
