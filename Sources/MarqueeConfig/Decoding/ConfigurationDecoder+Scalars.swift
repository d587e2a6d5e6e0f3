import MarqueeCore
import Yams

/// Readers for single values. Each reports what it expected and what it found, and returns nil
/// so the caller keeps its default.
extension ConfigurationDecoder {
    /// The node's resolved tag (`!!str`, `!!int`, `!!null`, ...): quoting makes `"10"` a string.
    func tagName(_ node: Node) -> Tag.Name {
        Tag.Name(rawValue: node.tag.rawValue)
    }

    /// An empty value, `~` or `null`.
    func isNothing(_ node: Node) -> Bool {
        if case .scalar = node { return tagName(node) == .null }
        return false
    }

    /// What a node is, for "found ..." in messages.
    func describe(_ node: Node) -> String {
        switch node {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .alias: return "an alias"
        case .scalar(let scalar): return isNothing(node) ? "nothing" : "'\(scalar.string)'"
        }
    }

    mutating func string(_ node: Node, expected: String = "a string") -> String? {
        guard case .scalar(let scalar) = node, !isNothing(node) else {
            log.error(at: SourcePosition(of: node), "expected \(expected), found \(describe(node))")
            return nil
        }
        return scalar.string
    }

    mutating func bool(_ node: Node) -> Bool? {
        guard tagName(node) == .bool, let value = node.bool else {
            log.error(at: SourcePosition(of: node), "expected true or false, found \(describe(node))")
            return nil
        }
        return value
    }

    mutating func number(_ node: Node) -> Double? {
        guard tagName(node) == .int || tagName(node) == .float, let value = node.float, value.isFinite else {
            log.error(at: SourcePosition(of: node), "expected a number, found \(describe(node))")
            return nil
        }
        return value
    }

    mutating func wholeNumber(_ node: Node) -> Int? {
        guard tagName(node) == .int, let value = node.int else {
            log.error(at: SourcePosition(of: node), "expected a whole number, found \(describe(node))")
            return nil
        }
        return value
    }

    /// Seconds (`2.5`, `90`) or a clock (`1:02:03.250`), number or string alike. The scalar's text
    /// goes straight to `MediaTime.parse`, never through `Double`, so `0.1` stays exactly 1/10.
    mutating func time(_ node: Node) -> MediaTime? {
        guard case .scalar(let scalar) = node, !isNothing(node) else {
            log.error(at: SourcePosition(of: node),
                      "expected a time (seconds or [hh:]mm:ss[.fff]), found \(describe(node))")
            return nil
        }
        switch MediaTime.parse(scalar.string) {
        case .success(let time): return time
        case .failure(let error):
            log.error(at: SourcePosition(of: node), error.description)
            return nil
        }
    }

    /// One of an enum's raw values, in any letter case (`aspectfit` works too).
    mutating func choice<Value: RawRepresentable & CaseIterable>(_ node: Node, named what: String) -> Value?
    where Value.RawValue == String {
        let allowed = Value.allCases.map(\.rawValue)
        guard let text = string(node, expected: "a \(what) (\(Suggestion.list(allowed)))") else { return nil }
        if let value = Value.allCases.first(where: { $0.rawValue.lowercased() == text.lowercased() }) {
            return value
        }
        var message = "unknown \(what) '\(text)'"
        if let suggestion = Suggestion.closest(to: text, among: allowed) { message += "; did you mean '\(suggestion)'?" }
        message += " (expected \(Suggestion.list(allowed)))"
        log.error(at: SourcePosition(of: node), message)
        return nil
    }
}
