/// Finds where a mapping repeats a key. Yams reports only the key's name and its first position,
/// so this looks, from that first position, for the next key with the same name in the same
/// mapping: at the same indentation in block style, or after a top-level `,` in flow style (JSON).
struct DuplicateKeyLocator {
    /// Lines split on `\n` only, so joining them back gives the original text exactly; columns
    /// count Unicode scalars, as libyaml does.
    private var lines: [[Unicode.Scalar]]

    init(text: String) {
        lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map(Array.init)
    }

    /// A key no config would contain: private-use code points, one per scalar of the key it
    /// replaces so every column stays where it was; `number` keeps sentinels distinct.
    static func sentinel(number: Int, length: Int) -> String {
        let base: UInt32 = 0xE000
        var scalars = [Unicode.Scalar(base + UInt32(number % 0x1000))!]
        scalars += Array(repeating: Unicode.Scalar(base)!, count: max(0, length - 1))
        return String(String.UnicodeScalarView(scalars))
    }

    /// The second occurrence's position and the text with that key renamed to `sentinel`.
    func renamingSecondOccurrence(of key: String, firstAt first: SourcePosition,
                                  to sentinel: String) -> (SourcePosition, String)? {
        let keyScalars = Array(key.unicodeScalars)
        let firstIndex = (line: first.line - 1, column: first.column - 1)
        guard lines.indices.contains(firstIndex.line),
              let firstToken = keyToken(keyScalars, line: firstIndex.line, column: firstIndex.column)
        else { return nil }

        let afterFirst = (line: firstIndex.line, column: firstIndex.column + firstToken.length)
        let searches = looksLikeFlow(before: firstIndex)
            ? [flowSearch, blockSearch] : [blockSearch, flowSearch]
        for search in searches {
            if let found = search(keyScalars, firstIndex, afterFirst) {
                var patched = lines
                let replacement = Array(sentinel.unicodeScalars)
                patched[found.line].replaceSubrange(found.inner, with: replacement)
                let text = patched.map { String(String.UnicodeScalarView($0)) }.joined(separator: "\n")
                return (SourcePosition(line: found.line + 1, column: found.column + 1), text)
            }
        }
        return nil
    }

    private typealias Index = (line: Int, column: Int)
    private typealias Found = (line: Int, column: Int, inner: Range<Int>)

    /// Whether the key follows `{` or `,`: then its mapping is a flow (JSON-style) one.
    private func looksLikeFlow(before index: Index) -> Bool {
        var line = index.line
        var column = index.column - 1
        while line >= 0 {
            while column >= 0 {
                let scalar = lines[line][column]
                if !isBlank(scalar) { return scalar == "{" || scalar == "," }
                column -= 1
            }
            line -= 1
            if line >= 0 { column = lines[line].count - 1 }
        }
        return false
    }

    /// Later lines whose first character sits in the first key's column; stops at a dedent.
    private func blockSearch(_ key: [Unicode.Scalar], _ first: Index, _ after: Index) -> Found? {
        var line = first.line + 1
        while line < lines.count {
            let text = lines[line]
            defer { line += 1 }
            guard let indent = text.firstIndex(where: { !isBlank($0) }), text[indent] != "#" else { continue }
            if indent < first.column { return nil }
            if indent == first.column, let token = keyToken(key, line: line, column: indent) {
                return (line, indent, token.inner)
            }
        }
        return nil
    }

    /// Walks the flow mapping after the first key, skipping nested collections, quoted strings
    /// and comments, and checks each key that follows a top-level `,`.
    private func flowSearch(_ key: [Unicode.Scalar], _ first: Index, _ after: Index) -> Found? {
        var line = after.line
        var column = after.column
        var depth = 0
        var expectingKey = false
        while line < lines.count {
            let text = lines[line]
            guard column < text.count else {
                line += 1
                column = 0
                continue
            }
            let scalar = text[column]
            if isBlank(scalar) {
                column += 1
                continue
            }
            if expectingKey && depth == 0 {
                if let token = keyToken(key, line: line, column: column) { return (line, column, token.inner) }
                expectingKey = false
            }
            switch scalar {
            case "\"", "'":
                guard let end = endOfQuoted(from: (line, column)) else { return nil }
                (line, column) = end
                continue
            case "#" where column == 0 || isBlank(text[column - 1]):
                line += 1
                column = 0
                continue
            case "{", "[":
                depth += 1
            case "}", "]":
                if depth == 0 { return nil }
                depth -= 1
            case "," where depth == 0:
                expectingKey = true
            default:
                break
            }
            column += 1
        }
        return nil
    }

    /// The position just past the quoted scalar starting at `start`.
    private func endOfQuoted(from start: Index) -> Index? {
        let quote = lines[start.line][start.column]
        var line = start.line
        var column = start.column + 1
        while line < lines.count {
            let text = lines[line]
            while column < text.count {
                let scalar = text[column]
                if quote == "\"" && scalar == "\\" {
                    column += 2
                    continue
                }
                if scalar == quote {
                    if quote == "'" && column + 1 < text.count && text[column + 1] == "'" {
                        column += 2
                        continue
                    }
                    return (line, column + 1)
                }
                column += 1
            }
            line += 1
            column = 0
        }
        return nil
    }

    /// Whether `key` is written at this spot (plain, "double" or 'single' quoted) and followed by
    /// `:`; gives the token's length and the range of its name inside any quotes.
    private func keyToken(_ key: [Unicode.Scalar], line: Int, column: Int) -> (length: Int, inner: Range<Int>)? {
        let text = lines[line]
        guard column < text.count else { return nil }
        let opening = text[column]
        let quoted = opening == "\"" || opening == "'"
        let nameStart = quoted ? column + 1 : column
        let nameEnd = nameStart + key.count
        guard nameEnd <= text.count, Array(text[nameStart..<nameEnd]) == key else { return nil }
        var end = nameEnd
        if quoted {
            guard end < text.count, text[end] == opening else { return nil }
            end += 1
        }
        var colon = end
        while colon < text.count, isBlank(text[colon]) { colon += 1 }
        guard colon < text.count, text[colon] == ":" else { return nil }
        return (end - column, nameStart..<nameEnd)
    }

    private func isBlank(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t" || scalar == "\r"
    }
}
