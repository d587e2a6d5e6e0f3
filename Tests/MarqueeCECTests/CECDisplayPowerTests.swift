import Foundation
import Synchronization
import Testing
@testable import MarqueeCEC

/// The switch's promise to the present thread without a device: a wish returns at once, and an
/// adapter that cannot be used is one error line at start, however many wishes follow.
@Suite struct CECDisplayPowerTests {
    final class Lines: Sendable {
        private let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
        var log: CECLog {
            CECLog(info: { [self] line in lines.withLock { $0.append("info: \(line)") } },
                   warning: { [self] line in lines.withLock { $0.append("warning: \(line)") } },
                   error: { [self] line in lines.withLock { $0.append("error: \(line)") } })
        }

        func waitForLines(_ count: Int, seconds: Double = 10) -> Bool {
            let deadline = Date(timeIntervalSinceNow: seconds)
            while all.count < count && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
            return all.count >= count
        }
    }

    @Test func aMissingAdapterIsOneErrorLineAndWishesReturnAtOnce() throws {
        let lines = Lines()
        let power = CECDisplayPower(path: "/dev/cec-missing", log: lines.log)
        let start = ContinuousClock.now
        for index in 0..<20 { try power.setDisplayPower(on: index % 2 == 0) }
        #expect(ContinuousClock.now - start < .milliseconds(100))
        #expect(lines.waitForLines(1))
        power.finish(waitingAtMost: 5)
        Thread.sleep(forTimeInterval: 0.1)
        #expect(lines.all == ["error: cec: cannot use /dev/cec-missing: No such file or directory; playing on without HDMI-CEC"])
    }

    @Test func aNodeThatIsNotAnAdapterIsSaidSo() throws {
        let lines = Lines()
        let power = CECDisplayPower(path: "/dev/null", log: lines.log)
        try power.setDisplayPower(on: false)
        #expect(lines.waitForLines(1))
        power.finish(waitingAtMost: 5)
        #expect(lines.all == ["error: cec: cannot use /dev/null: not a CEC adapter (Inappropriate ioctl for device); playing on without HDMI-CEC"])
    }

    /// `finish` does not wait out its grace for a thread that has already given up.
    @Test func finishingAfterTheAdapterFailedIsImmediate() throws {
        let lines = Lines()
        let power = CECDisplayPower(path: "/dev/cec-missing", log: lines.log)
        #expect(lines.waitForLines(1))
        try power.setDisplayPower(on: false)
        let start = ContinuousClock.now
        power.finish(waitingAtMost: 5)
        #expect(ContinuousClock.now - start < .seconds(1))
    }
}
