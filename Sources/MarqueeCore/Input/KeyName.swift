/// An evdev key name such as `KEY_KP5` or `KEY_PLAYPAUSE`, checked against the kernel's table.
public struct KeyName: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let name: String
    /// The EV_KEY code the kernel gives this name.
    public let code: UInt16

    /// Accepts the kernel's names exactly (`KEY_KP5`), and, for convenience in hand-written
    /// config, the same without the `KEY_` prefix or in lower case (`kp5`).
    public init?(_ text: String) {
        let upper = text.uppercased()
        for candidate in [upper, "KEY_" + upper] {
            if let code = Self.codesByName[candidate] {
                self.name = candidate
                self.code = code
                return
            }
        }
        return nil
    }

    /// Every name the kernel defines for `code`; aliases share a code.
    public static func names(forCode code: UInt16) -> [String] {
        codesByName.filter { $0.value == code }.map(\.key).sorted()
    }

    public static var allNames: [String] { codesByName.keys.sorted() }

    public var description: String { name }

    public static func < (lhs: KeyName, rhs: KeyName) -> Bool { lhs.name < rhs.name }
}
