import CLinux

/// What inotify reports about /dev/input, parsed from its records.
struct DirectoryChange: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        /// A node appeared (IN_CREATE, IN_MOVED_TO): open it, perhaps after udev sets its permissions.
        case appeared
        /// Its owner or mode changed (IN_ATTRIB): udev has settled it; a node that could not be
        /// opened may open now.
        case attributesChanged
        /// Gone (IN_DELETE, IN_MOVED_FROM).
        case disappeared
        /// The kernel dropped inotify events (IN_Q_OVERFLOW): rescan the directory.
        case overflowed
        /// The watched directory itself is gone (IN_DELETE_SELF, IN_IGNORED): no more hotplug.
        case watchEnded
    }

    var kind: Kind
    /// The entry's name in the directory (`event5`); empty for overflowed and watchEnded.
    var name: String

    static let inAttrib = UInt32(IN_ATTRIB)
    static let inMovedFrom = UInt32(IN_MOVED_FROM)
    static let inMovedTo = UInt32(IN_MOVED_TO)
    static let inCreate = UInt32(IN_CREATE)
    static let inDelete = UInt32(IN_DELETE)
    static let inDeleteSelf = UInt32(IN_DELETE_SELF)
    static let inQueueOverflow = UInt32(IN_Q_OVERFLOW)
    static let inIgnored = UInt32(IN_IGNORED)
    /// What the monitor asks inotify for.
    static let watchMask: UInt32 = inCreate | inAttrib | inDelete | inMovedTo | inMovedFrom | inDeleteSelf

    /// Parses the records one read() returned: each is `int wd; uint32 mask, cookie, len;` then
    /// `len` bytes of NUL-padded name. A truncated tail (cannot happen with a whole read) is ignored.
    static func parse(_ bytes: some Collection<UInt8>) -> [DirectoryChange] {
        let buffer = Array(bytes)
        var changes: [DirectoryChange] = []
        var offset = 0
        while offset + 16 <= buffer.count {
            let mask = word(buffer, at: offset + 4)
            let length = Int(word(buffer, at: offset + 12))
            guard offset + 16 + length <= buffer.count else { break }
            let nameBytes = buffer[(offset + 16)..<(offset + 16 + length)].prefix { $0 != 0 }
            let name = String(decoding: nameBytes, as: UTF8.self)
            offset += 16 + length
            if let kind = kind(of: mask) { changes.append(DirectoryChange(kind: kind, name: name)) }
        }
        return changes
    }

    private static func kind(of mask: UInt32) -> Kind? {
        if mask & inQueueOverflow != 0 { return .overflowed }
        if mask & (inDeleteSelf | inIgnored) != 0 { return .watchEnded }
        if mask & (inCreate | inMovedTo) != 0 { return .appeared }
        if mask & (inDelete | inMovedFrom) != 0 { return .disappeared }
        if mask & inAttrib != 0 { return .attributesChanged }
        return nil
    }

    /// Native byte order: the records come from this machine's kernel.
    private static func word(_ buffer: [UInt8], at offset: Int) -> UInt32 {
        var value: UInt32 = 0
        withUnsafeMutableBytes(of: &value) { raw in
            for index in 0..<4 { raw[index] = buffer[offset + index] }
        }
        return value
    }
}
