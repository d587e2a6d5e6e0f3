import Foundation
import Synchronization
import Testing
@testable import MarqueeCore

@Suite struct ThreadNameTests {
    /// The kernel's name, as /proc/thread-self/comm and `ps -L` show it: what a bench script reads.
    @Test func aThreadNamedForTheKernelIsSeenThereAndCutTo15Bytes() throws {
        let seen = Mutex<[String]?>(nil)
        let thread = Thread {
            ThreadName.set("marquee.present")
            let first = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
            ThreadName.set("marquee.a-name-too-long")
            let second = ThreadName.current
            seen.withLock { $0 = [first.trimmingCharacters(in: .newlines), second] }
        }
        thread.start()
        let deadline = Date().addingTimeInterval(10)
        while seen.withLock({ $0 }) == nil && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        let names = try #require(seen.withLock { $0 })
        #expect(names == ["marquee.present", "marquee.a-name-"])
        #expect(ThreadName.current != "marquee.present", "only the thread that named itself is named")
    }
}
