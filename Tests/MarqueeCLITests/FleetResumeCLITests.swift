import Foundation
import Testing

/// Resume after a restart for a fleet device (`marquee play URL`): its playlist arrives through
/// the cache after the start, and the first one, the config kept from the last run, is entered
/// where that run left it.
@Suite(.serialized) struct FleetResumeCLITests {
    @Test func theKeptConfigIsEnteredWhereTheLastRunLeftIt() throws {
        let fixture = try FleetFixture(name: "resume")
        defer { fixture.server.stop() }
        // big is 2 s, so the quit can come a second into it.
        fixture.serveConfig(FleetCLITests.lobby(fixture, ["one", "big"]), etag: "v1")
        fixture.serve("one")
        fixture.serve("big")
        let state = fixture.folder.appendingPathComponent("state")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        let environment = ["STATE_DIRECTORY": state.path]
        func shown(_ run: PlayerRun) -> [[String: Any]] {
            run.events().filter { $0["event"] as? String == "frame" && $0["dropped"] == nil }
        }

        let first = try fixture.play(environment: environment)
        #expect(first.waitForEvents(seconds: 30) { _ in shown(first).contains { ($0["item"] as? Int) == 1 && ($0["pts"] as? Double ?? 0) >= 0.8 } },
                "\(first.standardError())")
        #expect(first.terminate() == 0)
        let saved = try ResumeCLITests.saved(in: state)
        let last = try #require(shown(first).last)
        #expect(saved.index == 1 && abs(saved.time - (last["pts"] as? Double ?? -1)) < 0.001, "\(saved) \(last)")

        let second = try fixture.play(environment: environment)
        #expect(second.waitForEvents(seconds: 30) { _ in !shown(second).isEmpty }, "\(second.standardError())")
        let resumed = try #require(ResumeCLITests.firstFrame(second))
        // Within a frame (25 fps) of the saved point, the kept config's item.
        #expect(resumed.item == 1 && abs(resumed.pts - saved.time) < 0.041, "\(resumed) \(saved)")
        #expect(second.standardError().contains("resume: item 2/2 at"), "\(second.standardError())")
        #expect(FleetFixture.starts(second.events()).first == fixture.mediaURL("big"))
        #expect(second.terminate() == 0)
    }
}
