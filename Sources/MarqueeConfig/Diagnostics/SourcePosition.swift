import Yams

/// A 1-based line and column in a config file.
struct SourcePosition: Sendable, Equatable, Comparable {
    var line: Int
    var column: Int

    /// Where a file-level problem (unreadable, empty) is reported: there is no better place.
    static let start = SourcePosition(line: 1, column: 1)

    init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// Yams' marks are already 1-based (it adds 1 to libyaml's 0-based marks).
    init(_ mark: Mark?) {
        self = mark.map { SourcePosition(line: $0.line, column: $0.column) } ?? .start
    }

    init(of node: Node) {
        self.init(node.mark)
    }

    static func < (lhs: SourcePosition, rhs: SourcePosition) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }
}
