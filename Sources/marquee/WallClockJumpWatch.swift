import CLinux
import Foundation
import MarqueeCore
import MarqueeSession

/// Hears of wall-clock jumps: a device without an RTC boots in 1970 and jumps to now when NTP
/// syncs; an operator runs `date -s`. A CLOCK_REALTIME timerfd armed far ahead with
/// TFD_TIMER_CANCEL_ON_SET fails its read with ECANCELED whenever the clock is set; it is a source
/// on the control-plane loop, and each jump calls `changed` there, then the timer is armed again.
/// Slewing (NTP's gradual corrections) sets nothing and is not reported. Its stop rule: any other
/// read failure, or a timer that cannot be armed again, ends the watch (it would fail again at once).
final class WallClockJumpWatch: @unchecked Sendable {
    private let descriptor: Int32
    private let events: ControlPlaneLoop
    private let changed: @Sendable () -> Void

    /// Nil when the kernel refuses the timer (said once by the caller): schedules then follow the
    /// clock without hearing of jumps until their next change.
    init?(events: ControlPlaneLoop, changed: @escaping @Sendable () -> Void) {
        let descriptor = timerfd_create(CLOCK_REALTIME, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
        guard descriptor >= 0 else { return nil }
        self.descriptor = descriptor
        self.events = events
        self.changed = changed
        guard arm() else {
            close(descriptor)
            return nil
        }
    }

    /// Why `init` failed, for the one line that says so.
    static var lastError: String { String(cString: strerror(errno)) }

    /// Registers the timer with the loop, which owns it from now on.
    func start() {
        events.watch(descriptor, named: "wall-clock jumps", owning: true) { [self] _ in readTimer() }
    }

    /// Armed a year ahead: it never expires in practice; only its cancellation matters.
    private func arm() -> Bool {
        var spec = itimerspec()
        spec.it_value.tv_sec = time(nil) + 366 * 86_400
        return timerfd_settime(descriptor, marquee_timerfd_abstime_cancel_on_set(), &spec, nil) == 0
    }

    private func readTimer() -> EventSourceStep {
        var expirations: UInt64 = 0
        // The error is taken from the call at once: `changed` may leave errno set by whatever it calls.
        var failure: Int32 = 0
        do {
            try SystemCall.retrying("read", path: "timerfd") { read(descriptor, &expirations, MemoryLayout<UInt64>.size) }
        } catch {
            failure = error.code
        }
        if failure == EAGAIN { return .keep }
        if failure == ECANCELED { changed() }
        if failure != 0 && failure != ECANCELED { return .end }
        // Cancelled or (after a year) expired: armed again; one that cannot be armed ends the watch.
        return arm() ? .keep : .end
    }
}
