import Foundation

/// Which media files to remove to bring the cache within a bound: the pure policy behind
/// `MediaCache.evict`. Unreferenced files only, least recently used first; a file no index entry
/// names (never used, as far as the cache knows) goes before any used one; the name breaks ties
/// so the order is the same on every device. Stops as soon as the total is within the bound.
public struct EvictionPlan: Sendable, Equatable {
    public struct File: Sendable, Equatable {
        public var name: String
        public var size: Int64
        /// The latest `lastUsed` of the entries naming it; nil when none does.
        public var lastUsed: Date?
        /// A URL the caller keeps names it: never removed.
        public var isReferenced: Bool

        public init(name: String, size: Int64, lastUsed: Date?, isReferenced: Bool) {
            self.name = name
            self.size = size
            self.lastUsed = lastUsed
            self.isReferenced = isReferenced
        }
    }

    /// Names to remove, in order.
    public let removals: [String]
    /// Bytes left afterwards: still above the bound when only referenced files remain.
    public let totalAfter: Int64

    /// `otherBytes`: what counts towards the bound but is not for this plan to remove (the
    /// partial downloads of referenced URLs).
    public init(files: [File], otherBytes: Int64 = 0, bound: Int64) {
        var total = files.reduce(otherBytes) { $0 + $1.size }
        let candidates = files.filter { !$0.isReferenced }.sorted {
            let (left, right) = ($0.lastUsed ?? .distantPast, $1.lastUsed ?? .distantPast)
            return left != right ? left < right : $0.name < $1.name
        }
        var removals = [String]()
        for file in candidates where total > bound {
            removals.append(file.name)
            total -= file.size
        }
        self.removals = removals
        totalAfter = total
    }
}
