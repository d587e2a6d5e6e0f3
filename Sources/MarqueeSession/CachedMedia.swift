import Foundation

/// A remote item that is downloaded into the cache before it plays, and the hash its copy must have.
package struct CachedMedia: Equatable, Sendable {
    package var url: URL
    /// The config's `sha256:`; nil: only the size the server announced is checked.
    package var sha256: String?
    /// The config's `size:` in bytes; nil: the bound is the whole cache (cache.maxBytes).
    package var size: Int64?
}
