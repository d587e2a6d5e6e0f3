import Foundation
import MarqueeCore

/// A whole write to a file descriptor that reports failure instead of trapping or raising a signal.
/// Marquee ignores SIGPIPE, so a reader that went away (`| head -1`, a journald restart) shows
/// up here as EPIPE; Foundation's `FileHandle.write(_:)` would trap on that, this returns it.
public enum DescriptorWrite {
    /// Writes every byte of `data` to `descriptor`, retrying short writes and EINTR; the errno of
    /// the first failure, or nil when all was written.
    public static func all(_ data: Data, to descriptor: Int32) -> Int32? {
        data.withUnsafeBytes { buffer -> Int32? in
            guard var base = buffer.baseAddress else { return nil }
            var remaining = buffer.count
            while remaining > 0 {
                let written: Int
                do throws(SystemError) {
                    written = try SystemCall.retrying("write") { write(descriptor, base, remaining) }
                } catch {
                    return error.code
                }
                // A device that takes nothing and reports no error would loop for ever.
                if written == 0 { return EIO }
                remaining -= written
                base += written
            }
            return nil
        }
    }

    /// `strerror` as a Swift string: `No space left on device`.
    public static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
