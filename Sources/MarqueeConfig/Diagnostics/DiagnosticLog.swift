/// Collects every problem in one file, so a single `marquee check` run reports all of them.
struct DiagnosticLog {
    let file: String
    private(set) var entries: [(position: SourcePosition, diagnostic: Diagnostic)] = []

    init(file: String) {
        self.file = file
    }

    var hasErrors: Bool { entries.contains { $0.diagnostic.severity == .error } }

    /// How many errors so far: a decoder compares counts to tell whether a part was read cleanly.
    var errorCount: Int { entries.count { $0.diagnostic.severity == .error } }

    mutating func error(at position: SourcePosition, _ message: String) {
        add(.error, at: position, message)
    }

    mutating func warning(at position: SourcePosition, _ message: String) {
        add(.warning, at: position, message)
    }

    private mutating func add(_ severity: Diagnostic.Severity, at position: SourcePosition, _ message: String) {
        let diagnostic = Diagnostic(severity: severity, file: file, line: position.line,
                                    column: position.column, message: message)
        entries.append((position, diagnostic))
    }

    /// In file order; problems at the same spot keep the order they were found in.
    var sortedDiagnostics: [Diagnostic] {
        entries.enumerated()
            .sorted { ($0.element.position, $0.offset) < ($1.element.position, $1.offset) }
            .map(\.element.diagnostic)
    }
}
