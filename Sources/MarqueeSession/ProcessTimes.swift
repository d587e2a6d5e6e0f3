import Foundation

/// Boot-relative times, as /proc/uptime counts them (CLOCK_BOOTTIME).
package enum ProcessTimes {
    package static func uptime() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_BOOTTIME, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// When marquee's main began, in seconds since boot: the "start" of `first frame on screen X s
    /// after start`. Read first thing in `Marquee.main()`, which fixes it (a static let is set on
    /// first use).
    ///
    /// Not /proc/self/stat's starttime: that is when the process was forked, and exec keeps it, so
    /// under `sh -c '...; exec marquee'` (Scripts/demo.sh execs marquee after a 70 s build; the line
    /// said 72.09 s) it counts whatever ran before the exec. Linux records no exec time; main is the
    /// earliest point marquee's own code runs, so the dynamic loader's work before it is not counted
    /// (the uptime in the same line still counts everything since boot).
    package static let launched: Double = uptime()
}
