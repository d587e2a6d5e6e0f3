import CFFmpeg
import Foundation
import MarqueeCore

/// SHA-256 with libavutil's `av_sha` (already linked for playback: no second crypto library on the
/// device). The media cache names and verifies its files by it, and names partial downloads by
/// their URL's digest.
public struct FileSHA256: FileDigesting {
    /// Read size: a multi-gigabyte clip is a few thousand reads, and the buffer stays small next to
    /// the player's frames.
    static let chunkBytes = 1 << 20

    public init() {}

    public func sha256(ofFileAt path: String) throws -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw DigestError("sha256: cannot open \(path): \(Self.reason(errno))") }
        defer { close(descriptor) }
        return try Self.digest { update in
            var buffer = [UInt8](repeating: 0, count: Self.chunkBytes)
            while true {
                let count: Int
                do throws(SystemError) {
                    count = try SystemCall.retrying("read", path: path) {
                        buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                    }
                } catch {
                    throw DigestError("sha256: cannot read \(path): \(Self.reason(error.code))")
                }
                if count == 0 { return }
                update(buffer, count)
            }
        }
    }

    public func sha256(of bytes: [UInt8]) -> String {
        do {
            return try Self.digest { update in update(bytes, bytes.count) }
        } catch {
            // Only a failed allocation of libavutil's small context gets here: the process is out
            // of memory and has no sensible name to return.
            preconditionFailure("\(error)")
        }
    }

    /// Runs `feed` with a function that adds bytes to a fresh SHA-256 context; lower-case hex.
    private static func digest(_ feed: (_ update: (UnsafePointer<UInt8>, Int) -> Void) throws -> Void) throws -> String {
        guard let context = av_sha_alloc() else { throw DigestError("sha256: av_sha_alloc failed (out of memory)") }
        defer { av_free(UnsafeMutableRawPointer(context)) }
        guard av_sha_init(context, 256) == 0 else { throw DigestError("sha256: av_sha_init(256) failed") }
        try feed { bytes, count in av_sha_update(context, bytes, count) }
        var digest = [UInt8](repeating: 0, count: 32)
        av_sha_final(context, &digest)
        return digest.map { String(format: "%02x", $0) }.joined()
    }

    private static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// Why a file could not be digested, as one line.
    public struct DigestError: Error, Sendable, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }
}
