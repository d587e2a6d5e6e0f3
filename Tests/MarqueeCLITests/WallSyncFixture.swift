import Foundation

/// Media and a `sync:` config for the frame-lock tests: three items (a trim of each kind) of
/// clips whose sound is seeded noise in 16-bit PCM, so every sample is unique and decodes the same
/// in every process. The cycle is 2 + 1.2 + 0.6 = 3.8 s.
enum WallSyncFixture {
    static let epoch = 1_767_225_600.0 // 2026-01-01T00:00:00Z
    /// Each item's length, where it starts in the cycle, and its trimmed start in its media.
    static let lengths = [2.0, 1.2, 0.6]
    static let cycleStarts = [0.0, 2.0, 3.2]
    static let mediaStarts = [0.0, 0.2, 0.0]
    static let cycle = 3.8
    static let sampleRate = 48_000
    static let frameDuration = 0.04

    static let workspace: Result<URL, CLIFixtures.Failure> = {
        do {
            let folder = try CLIFixtures.workspace(prefix: "marquee-sync-cli-")
            func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
            func clip(_ name: String, seconds: String, seed: Int, video: String) throws {
                try CLIFixtures.runFFmpeg(["-f", "lavfi", "-i", "\(video)=size=160x90:rate=25", "-f", "lavfi",
                                           "-i", "anoisesrc=sample_rate=48000:seed=\(seed):amplitude=0.5", "-t", seconds,
                                           "-c:v", "libx264", "-preset", "ultrafast", "-g", "25", "-pix_fmt", "yuv420p",
                                           "-c:a", "pcm_s16le", "-ac", "2", path(name)])
            }
            try clip("a.mkv", seconds: "2", seed: 7, video: "testsrc2")
            try clip("b.mkv", seconds: "1.4", seed: 11, video: "testsrc")
            try """
                sync:
                  epoch: "2026-01-01T00:00:00Z"
                playlist:
                  items:
                    - a.mkv
                    - url: b.mkv
                      start: 0.2
                    - url: a.mkv
                      end: 0.6

                """.write(toFile: path("wall.yaml"), atomically: true, encoding: .utf8)
            return .success(folder)
        } catch let failure as CLIFixtures.Failure {
            return .failure(failure)
        } catch {
            return .failure(CLIFixtures.Failure(description: "could not make the sync test media: \(error)"))
        }
    }()
}

/// What one frame-locked player put on screen, by the wall clock, from its event log.
struct WallTrace {
    /// A source frame: which cycle since the epoch, which item, which pts.
    struct Frame: Hashable, CustomStringConvertible {
        var cycle: Int
        var item: Int
        /// The pts in milliseconds (whole: 25 fps pts are multiples of 40 ms).
        var pts: Int
        var description: String { "cycle \(cycle) item \(item) pts \(pts) ms" }
    }

    struct Shown {
        var wall: Double
        var frame: Frame
        /// The first frame after a join: put up mid-slot, when the join's pre-roll ended.
        var isJoin: Bool
    }

    var shown: [Shown] = []
    var joins: [[String: Any]] = []

    init(events: [[String: Any]]) {
        var afterJoin = false
        for event in events {
            switch event["event"] as? String {
            case "wallSyncJoined":
                joins.append(event)
                afterJoin = true
            case "frame":
                guard event["dropped"] == nil, let wall = event["wall"] as? Double, let item = event["item"] as? Int,
                      let pts = event["pts"] as? Double else { continue }
                let due = Self.slotStart(item: item, pts: pts)
                let cycle = Int(((wall - WallSyncFixture.epoch - due) / WallSyncFixture.cycle).rounded())
                shown.append(Shown(wall: wall, frame: Frame(cycle: cycle, item: item, pts: Int((pts * 1000).rounded())), isJoin: afterJoin))
                afterJoin = false
            default:
                continue
            }
        }
    }

    /// Where a source frame's slot starts within the cycle.
    static func slotStart(item: Int, pts: Double) -> Double {
        WallSyncFixture.cycleStarts[item] + max(0, pts - WallSyncFixture.mediaStarts[item])
    }

    /// The frame on screen at `wall`, if this trace had started by then.
    func frame(at wall: Double) -> Frame? {
        var low = 0
        var high = shown.count
        while low < high {
            let middle = (low + high) / 2
            if shown[middle].wall <= wall { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : shown[low - 1].frame
    }

    /// Every frame on screen at some instant within `within` of `wall`.
    func frames(around wall: Double, within: Double) -> Set<Frame> {
        var frames: Set<Frame> = []
        if let first = frame(at: wall - within) { frames.insert(first) }
        for entry in shown where entry.wall > wall - within && entry.wall <= wall + within { frames.insert(entry.frame) }
        return frames
    }

    /// When each frame went up, but a join's first frame (shown mid-slot by design).
    var slotStarts: [Frame: Double] {
        var starts: [Frame: Double] = [:]
        for entry in shown where !entry.isJoin { starts[entry.frame] = entry.wall }
        return starts
    }

    /// Every frame change, by the wall.
    var changes: [Double] { shown.map(\.wall) }
}

/// Two traces laid side by side.
///
/// Whether they show the same frame and how closely in time are told apart. A player woken late
/// shows the right frame a few milliseconds after the other: that is an offset, bounded by the
/// tests on its own. Measured on the 2-core test VM: the present thread's sleep (SCHED_FIFO)
/// overshot its deadline by more than 1.5 ms a few times a second and by up to 16 ms, from the
/// host waking the vCPU, and a plain `chrt -f 10` sleep loop showed the same tail (max 5.9 ms). A
/// frame the other did not show within `tolerance` of that instant (a frame off, a wrong cycle or
/// item) is a mismatch.
struct WallComparison {
    /// Frames both put up at their slot's start from `from` on, and how far apart (seconds, b − a).
    var offsets: [Double]
    /// Sampling instants where one showed a frame the other did not show within `tolerance`.
    var mismatches: [(wall: Double, a: WallTrace.Frame, b: WallTrace.Frame)]
    var samples: Int

    /// Half a 25 fps frame slot: a frame later than this against the other player is a frame off.
    static let tolerance = 0.020

    /// Compares what both showed from `from` to `to` (wall seconds), sampling every 5 ms.
    init(_ a: WallTrace, _ b: WallTrace, from: Double, to: Double, tolerance: Double = Self.tolerance) {
        let startsA = a.slotStarts
        let startsB = b.slotStarts
        offsets = startsB.compactMap { frame, wall in wall >= from ? startsA[frame].map { wall - $0 } : nil }
        mismatches = []
        samples = 0
        var wall = from
        while wall < to {
            if let frameA = a.frame(at: wall), let frameB = b.frame(at: wall) {
                samples += 1
                if frameA != frameB && !(a.frames(around: wall, within: tolerance).contains(frameB)
                                         && b.frames(around: wall, within: tolerance).contains(frameA)) {
                    mismatches.append((wall, frameA, frameB))
                }
            }
            wall += 0.005
        }
    }

    var worstOffsetMilliseconds: Double { (offsets.map(abs).max() ?? .infinity) * 1000 }
    var medianOffsetMilliseconds: Double {
        let sorted = offsets.sorted()
        return sorted.isEmpty ? .infinity : sorted[sorted.count / 2] * 1000
    }
}
