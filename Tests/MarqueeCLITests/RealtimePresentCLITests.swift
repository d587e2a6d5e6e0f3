import Foundation
import Testing

/// The present thread at SCHED_FIFO 10 and the decoders below it, read off the running player's
/// threads in /proc as `ps -L -o comm,cls,rtprio` would: as root (CAP_SYS_NICE), and refused
/// (root without CAP_SYS_NICE through setpriv, RLIMIT_RTPRIO 0): one warning, normal priority,
/// playback goes on. On the virtual clock it is never asked for. (The unit's `LimitRTPRIO=10`
/// path cannot be run here: raising the hard limit takes CAP_SYS_RESOURCE, which this machine's
/// root lacks; verify-unit.sh checks the unit has it.)
@Suite(.serialized) struct RealtimePresentCLITests {
    /// Without CAP_SYS_NICE: only RLIMIT_RTPRIO can grant SCHED_FIFO then.
    static let withoutNice = ["/usr/bin/setpriv", "--bounding-set=-sys_nice", "--inh-caps=-sys_nice", "--"]
    static let warning = "real-time: the present thread plays at normal priority"

    struct ThreadScheduling: Equatable, CustomStringConvertible {
        let name: String
        /// 0 SCHED_OTHER, 1 SCHED_FIFO (/proc/PID/task/TID/stat field 41).
        let policy: Int
        /// Field 40.
        let realtimePriority: Int
        var description: String { "\(name) policy \(policy) rtprio \(realtimePriority)" }
    }

    /// Every thread of `pid` with its scheduling.
    static func threads(of pid: Int32) -> [ThreadScheduling] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.compactMap { tid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/task/\(tid)/stat", encoding: .utf8),
                  let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { return nil }
            // Fields after the name start at field 3 (state).
            let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
            guard fields.count > 38, let priority = Int(fields[37]), let policy = Int(fields[38]) else { return nil }
            return ThreadScheduling(name: String(stat[stat.index(after: open)..<close]), policy: policy, realtimePriority: priority)
        }
    }

    /// Plays a.mp4 looping on the real clock (or `clock`) until a frame is on screen; returns the
    /// player's threads then and its stderr after SIGTERM.
    static func play(launcher: [String], clock: [String] = []) throws -> (threads: [ThreadScheduling], stderr: String) {
        let media = try PlayCommandTests.workspace.get()
        let run = try PlayerRun(arguments: ["play", media.appendingPathComponent("a.mp4").path, "--output", "headless:160x90",
                                            "--audio", "null", "--repeat", "all", "--input", "none", "--control", "none"] + clock,
                                in: media, launcher: launcher)
        #expect(run.waitForEvents(seconds: 30) { $0.contains { $0["event"] as? String == "frame" } }, "\(run.standardError())")
        // A decoder of the item on screen is running by its first frame.
        let threads = Self.threads(of: run.process.processIdentifier)
        #expect(run.terminate() == 0)
        return (threads, run.standardError())
    }

    static func present(_ threads: [ThreadScheduling]) throws -> ThreadScheduling {
        try #require(threads.first { $0.name == "marquee.present" }, "no present thread among \(threads)")
    }

    @Test func withTheRightThePresentThreadIsFIFOAndTheDecodersAreNot() throws {
        let (threads, stderr) = try Self.play(launcher: [])
        #expect(try Self.present(threads) == ThreadScheduling(name: "marquee.present", policy: 1, realtimePriority: 10))
        let decoders = threads.filter { $0.name.hasPrefix("marquee.decode") }
        #expect(!decoders.isEmpty, "\(threads)")
        #expect(decoders.allSatisfy { $0.policy == 0 }, "\(decoders)")
        // Only the present thread: the control plane, events and input threads stay normal too.
        #expect(threads.filter { $0.policy != 0 }.map(\.name) == ["marquee.present"], "\(threads)")
        #expect(!stderr.contains(Self.warning), "\(stderr)")
    }

    @Test func refusedItWarnsOnceAndPlaysAtNormalPriority() throws {
        let (threads, stderr) = try Self.play(launcher: Self.withoutNice)
        #expect(try Self.present(threads).policy == 0, "\(threads)")
        let warnings = stderr.split(separator: "\n").filter { $0.contains(Self.warning) }
        #expect(warnings.count == 1, "\(stderr)")
        #expect(warnings.first?.contains("Operation not permitted") == true, "\(stderr)")
    }

    @Test func theVirtualClockNeverAsks() throws {
        let (threads, stderr) = try Self.play(launcher: [], clock: ["--clock", "fast"])
        #expect(threads.allSatisfy { $0.policy == 0 }, "\(threads)")
        #expect(!stderr.contains(Self.warning), "\(stderr)")
    }
}
