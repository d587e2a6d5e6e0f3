import CLinux
import Foundation
import MarqueeSession

/// Whether the kernel counts its wall clock as synchronized, and how far off it thinks it may be:
/// adjtimex(2) read-only (modes 0), as chrony, ntpd and phc2sys/ptp4l leave it. Frame-locked
/// playback is only as good as this clock.
struct KernelClockState: Sendable, Equatable {
    /// A time daemon disciplines the clock (adjtimex did not say TIME_ERROR / STA_UNSYNC).
    var isSynchronized: Bool
    /// The kernel's estimated error and its maximum error, in microseconds.
    var estimatedErrorMicroseconds: Int
    var maximumErrorMicroseconds: Int

    static func read() -> KernelClockState? {
        var unsynchronized: Int32 = 0
        var estimated = 0
        var maximum = 0
        guard marquee_clock_state(&unsynchronized, &estimated, &maximum) >= 0 else { return nil }
        return KernelClockState(isSynchronized: unsynchronized == 0, estimatedErrorMicroseconds: estimated,
                                maximumErrorMicroseconds: maximum)
    }

    /// `synchronized (estimated error 12 µs, at most 450 µs)` or `not synchronized ...`.
    var description: String {
        "\(isSynchronized ? "synchronized" : "not synchronized") (estimated error \(estimatedErrorMicroseconds) µs, at most \(maximumErrorMicroseconds) µs)"
    }
}
