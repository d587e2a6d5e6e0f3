/// Why the cache could not do something, worded as one line (the filler prefixes the URL).
public enum MediaCacheError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A cache folder could not be made: `cache: cannot create /x: Permission denied`.
    case cannotCreate(path: String, reason: String)
    /// The downloaded file's size is not the one the server announced.
    case sizeMismatch(got: Int64, expected: Int64)
    /// The downloaded file is not what the config's `sha256:` says; it was deleted, never stored.
    case sha256Mismatch(got: String, expected: String)
    /// ENOSPC while writing into the cache directory.
    case diskFull(directory: String)
    /// Any other file operation that failed, with the path and strerror's reason.
    case file(String)

    public var description: String {
        switch self {
        case .cannotCreate(let path, let reason): "cache: cannot create \(path): \(reason)"
        case .sizeMismatch(let got, let expected): "size \(got), expected \(expected)"
        case .sha256Mismatch(let got, let expected): "sha256 mismatch: got \(got), expected \(expected)"
        case .diskFull(let directory): "cache: \(directory) is full (no space left on device)"
        case .file(let reason): reason
        }
    }
}
