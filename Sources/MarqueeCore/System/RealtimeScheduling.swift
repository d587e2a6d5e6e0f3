import Glibc

/// SCHED_FIFO for the thread that must not be late: the present thread. A real-time thread runs
/// whenever it is runnable, before every normal one, so the decode threads (which stay normal, and
/// so run below it) and the work prepared ahead cannot keep it from a flip. Measured in the QEMU
/// guest with its host busy: an item's second frame came up to 120 ms late while the decoders of
/// the item on screen and of the one ahead had both vCPUs; the present thread at SCHED_FIFO lost
/// far fewer frames at item starts.
///
/// Asked for without privileges it is refused (EPERM) unless RLIMIT_RTPRIO allows the priority
/// (the unit's `LimitRTPRIO=`) or the process has CAP_SYS_NICE.
public enum RealtimeScheduling {
    /// The priority the present thread asks for: above every normal thread, low among real-time
    /// ones, so the kernel's interrupt threads (50) still come first.
    public static let presentPriority: Int32 = 10

    /// Makes the calling thread SCHED_FIFO at `priority`; nil when it is, else why not.
    ///
    /// With SCHED_RESET_ON_FORK: the threads it starts begin at normal priority, not its own. The
    /// present thread starts every item's decode thread, and FFmpeg's frame threads are made by
    /// those; without the flag they all inherited SCHED_FIFO 10 (read off /proc in the test) and
    /// the decoders ran level with the present thread instead of below it.
    public static func raiseCallingThread(to priority: Int32) -> SystemError? {
        var parameters = sched_param()
        parameters.sched_priority = priority
        let result = pthread_setschedparam(pthread_self(), SCHED_FIFO | resetOnFork, &parameters)
        return result == 0 ? nil : SystemError(code: result, operation: "sched_setscheduler(SCHED_FIFO, \(priority))")
    }

    /// linux/sched.h's SCHED_RESET_ON_FORK, which Glibc's module leaves out.
    static let resetOnFork: Int32 = 0x4000_0000
}
