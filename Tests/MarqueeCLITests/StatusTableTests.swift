import Foundation
import Testing
@testable import marquee

/// `marquee ctl status` for people: rows that appear only when they say something.
@Suite struct StatusTableTests {
    @Test func aTimetableGivesADaypartRowWithTheNextChange() {
        let scheduled = StatusTable.text(["state": "playing", "loadState": "playable",
                                          "schedule": ["daypart": "lunch", "nextChange": "2026-11-26T14:00:00Z"] as [String: Any]])
        #expect(scheduled.contains("daypart") && scheduled.contains("lunch (next change 2026-11-26T14:00:00Z)"), "\(scheduled)")
        let idle = StatusTable.text(["state": "stopped", "schedule": ["daypart": NSNull()] as [String: Any]])
        #expect(idle.contains("nothing scheduled"), "\(idle)")
        #expect(!StatusTable.text(["state": "playing"]).contains("daypart"))
    }
}
