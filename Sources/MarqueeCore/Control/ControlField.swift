/// One field a control request may carry: its name, the kind of value it takes (with the range a
/// number must lie in), whether the command needs it, and what it is for. The socket's parser
/// checks a request's values against it; `marquee ctl` fills it from the words typed.
public struct ControlField: Sendable {
    public enum Kind: Sendable {
        /// A whole number within the range; `hint` says what it counts.
        case integer(ClosedRange<Int>, hint: String)
        /// Any number within the range; `hint` says it for people (`from 0 to 1`).
        case number(ClosedRange<Double>, hint: String)
        /// Seconds, as a number or as `[hh:]mm:ss[.fff]`.
        case time
        /// A list of times.
        case times
        case flag
        /// One of these words.
        case choice([String])
        case text
        /// A path on the player's machine: `marquee ctl` makes a relative one absolute.
        case path
        /// Names of events (`itemStarted`, ...).
        case eventNames
        /// A JSON object, carried on as a one-key JSON document `{"NAME": {...}}`; `example` shows one.
        case object(example: String)
    }

    public let name: String
    public let kind: Kind
    public let isRequired: Bool

    public init(_ name: String, _ kind: Kind, required: Bool = false) {
        self.name = name
        self.kind = kind
        self.isRequired = required
    }

    /// What the field takes, in the words of an error: `the item's 0-based index, as in itemStarted`.
    public var takes: String {
        switch kind {
        case .integer(let range, let hint): "a whole number from \(range.lowerBound)\(range.upperBound == Int.max ? " up" : " to \(range.upperBound)") (\(hint))"
        case .number(_, let hint): "a number \(hint)"
        case .time: "seconds or [hh:]mm:ss[.fff]"
        case .times: "a list of times, e.g. [12.0, \"1:23.2\"]"
        case .flag: "true or false"
        case .choice(let words): "one of \(words.joined(separator: ", "))"
        case .text, .path: "a string"
        case .eventNames: "a list of event names, e.g. [\"itemStarted\", \"itemEnded\"]"
        case .object(let example): "an object like \(example)"
        }
    }
}
