import CLinux

/// Names the calling thread for the kernel: what `top -H`, `ps -L`, `perf` and
/// /proc/PID/task/*/comm show, so an operator (or a bench script) can tell the present thread
/// from a decoder. Foundation's `Thread.name` stays inside the process. The kernel keeps at most
/// 15 bytes.
public enum ThreadName {
    public static func set(_ name: String) {
        _ = marquee_name_this_thread(name)
    }

    /// The calling thread's name as the kernel has it.
    public static var current: String {
        var buffer = [CChar](repeating: 0, count: 17)
        _ = marquee_this_thread_name(&buffer)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
