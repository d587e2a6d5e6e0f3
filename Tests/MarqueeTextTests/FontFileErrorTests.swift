import Foundation
import Testing
import MarqueeCore
import MarqueeFreeType
import MarqueeHarfBuzz

/// A bad `osd.font` is reported in one line naming the file and the cause, by both backends.
@Suite struct FontFileErrorTests {
    static func openBoth(_ path: String) -> [String] {
        var messages: [String] = []
        do { _ = try HarfBuzzTextShaper(fontPath: path) } catch { messages.append(error.description) }
        do { _ = try FreeTypeGlyphRasterizer(fontPath: path) } catch { messages.append(error.description) }
        return messages
    }

    static func temporaryFile(_ contents: [UInt8]) throws -> String {
        let path = NSTemporaryDirectory() + "marquee-font-\(UUID().uuidString).ttf"
        try Data(contents).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func missingFileNamesThePathAndSaysItIsMissing() {
        let path = "/nonexistent/fonts/Nope.ttf"
        let messages = Self.openBoth(path)
        #expect(messages == Array(repeating: "cannot use font \(path): no such file", count: 2))
    }

    @Test func emptyFileSaysItIsEmpty() throws {
        let path = try Self.temporaryFile([])
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(Self.openBoth(path) == Array(repeating: "cannot use font \(path): the file is empty", count: 2))
    }

    @Test func aFileThatIsNotAFontSaysSo() throws {
        let path = try Self.temporaryFile(Array("playlist:\n  repeat: all\n".utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let messages = Self.openBoth(path)
        #expect(messages.count == 2)
        for message in messages {
            #expect(message.hasPrefix("cannot use font \(path): not a font file"), "\(message)")
            #expect(!message.contains("\n"))
        }
    }

    @Test func aDirectoryIsNotAFont() {
        let messages = Self.openBoth("/usr/share/fonts")
        #expect(messages == Array(repeating: "cannot use font /usr/share/fonts: a directory, not a font file", count: 2))
    }
}
