import Foundation
import Testing

/// A playlist whose every item fails waits 1, 2, 4 … s of real time between rounds, even on
/// `--clock fast`, whose virtual waits are otherwise instant: a dead playlist must not spin.
@Suite struct BackOffTests {
    @Test func everyItemFailingBacksOffInRealTimeOnTheFastClock() throws {
        let folder = try PlayCommandTests.workspace.get()
        let run = try PlayerRun(arguments: ["play", "gone-1.mp4", "gone-2.mp4", "--output", "headless:64x36",
                                            "--clock", "fast", "--repeat", "all"], in: folder)
        // Round 1 fails and waits 1 s, round 2 fails and waits 2 s: two rounds in 2.5 s.
        Thread.sleep(forTimeInterval: 2.5)
        let cpu = run.cpuSeconds()
        #expect(run.terminate() == 0)
        let rounds = run.standardError().components(separatedBy: "\n").filter { $0.contains("every item failed") }
        #expect((1...3).contains(rounds.count), "\(rounds.count) rounds in 2.5 s")
        #expect(cpu < 1.5, "\(cpu) s of CPU in 2.5 s")
    }
}
