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
}
