import MarqueeConfig
import Testing

/// A config with exactly one problem, and where and how it must be reported.
struct BrokenConfigCase: Sendable, CustomTestStringConvertible {
    let name: String
    let fileName: String
    let text: String
    let line: Int
    let column: Int
    let message: String

    init(_ name: String, fileName: String = "config.yaml", _ text: String,
         line: Int, column: Int, message: String) {
        self.name = name
        self.fileName = fileName
        self.text = text
        self.line = line
        self.column = column
        self.message = message
    }

    var testDescription: String { name }

    /// Loads the case's text from a file of its own and expects exactly its one error, where it says.
    func expectReportedWhereItIs() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write(fileName, text)

        let result = ConfigurationLoader.load(path: path, checkingMediaFiles: false)

        #expect(result.configuration == nil)
        #expect(result.diagnostics.count == 1, "\(result.diagnostics)")
        let diagnostic = try #require(result.diagnostics.first)
        #expect(diagnostic.severity == .error)
        #expect(diagnostic.file == path)
        #expect(diagnostic.line == line, "\(diagnostic)")
        #expect(diagnostic.column == column, "\(diagnostic)")
        #expect(diagnostic.message.contains(message), "\(diagnostic)")
    }
}
