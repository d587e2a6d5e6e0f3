import Foundation
import Testing

/// The README's Architecture section lists every target: a module added without a word there
/// fails here.
@Suite struct ArchitectureReadmeTests {
    @Test func everySourceFolderIsInTheArchitectureTree() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "## Architecture").dropFirst().first?.components(separatedBy: "\n## ").first)
        let tree = try #require(section.components(separatedBy: "```\nSources/").dropFirst().first?.components(separatedBy: "```").first)
        let folders = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Sources").path).filter { !$0.hasPrefix(".") }
        #expect(folders.count > 20)
        for folder in folders {
            #expect(tree.contains(" \(folder)/"), "README's Architecture tree does not list Sources/\(folder)")
        }
    }
}
