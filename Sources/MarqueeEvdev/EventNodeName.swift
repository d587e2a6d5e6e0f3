/// The names evdev gives its nodes under /dev/input: `event0`, `event12`. Other entries there
/// (`mice`, `js0`, `by-id/`) are not evdev event devices.
enum EventNodeName {
    /// The number in `eventN`, or nil for anything else.
    static func number(of name: String) -> Int? {
        guard name.hasPrefix("event") else { return nil }
        let digits = name.dropFirst("event".count)
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else { return nil }
        return Int(digits)
    }

    /// Event nodes among `names`, in kernel order (event2 before event10), so logs and probe
    /// listings read naturally.
    static func sortedEventNodes(_ names: [String]) -> [String] {
        names.compactMap { name in number(of: name).map { (name, $0) } }
            .sorted { $0.1 < $1.1 }
            .map(\.0)
    }
}
