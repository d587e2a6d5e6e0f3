import Logging
import MarqueeCore
import Synchronization

/// What the session runs first on each screen's present thread (`PlayerSettings.onPresentThread`):
/// it asks for SCHED_FIFO at `RealtimeScheduling.presentPriority`. Refused (no CAP_SYS_NICE and no
/// `LimitRTPRIO=`), the player plays on at normal priority after one warning for the process,
/// however many screens ask. Only on the real clock: on the virtual one the present thread never
/// waits for a due time, and a real-time thread that never sleeps would take a CPU from everything
/// else.
enum PresentThreadPriority {
    private static let warned = Atomic<Bool>(false)

    static func request(on clock: PlaybackClock, logger: Logger) -> (@Sendable () -> Void)? {
        guard !(clock is VirtualClock) else { return nil }
        return {
            guard let refusal = RealtimeScheduling.raiseCallingThread(to: RealtimeScheduling.presentPriority) else { return }
            guard !warned.exchange(true, ordering: .relaxed) else { return }
            logger.warning("real-time: the present thread plays at normal priority: \(refusal) (the unit's LimitRTPRIO= or CAP_SYS_NICE grants it)")
        }
    }
}
