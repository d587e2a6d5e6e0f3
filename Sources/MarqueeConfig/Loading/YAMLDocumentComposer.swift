import Yams

/// Turns YAML (or JSON) text into a node tree with positions, reporting syntax errors where libyaml
/// found them.
///
/// Yams refuses a whole document when a mapping repeats a key, which would hide every other
/// problem. So each duplicate is reported at its second occurrence and renamed in place to a
/// same-length sentinel (positions stay put), and the text is composed again.
enum YAMLDocumentComposer {
    struct Document {
        var root: Node?
        /// Renamed duplicate keys; the decoder skips them (they are already reported).
        var duplicateKeySentinels: Set<String> = []
    }

    /// Far more duplicates than a hand-written file has; bounds the recompose loop.
    static let maximumDuplicateKeys = 200

    static func compose(_ originalText: String, log: inout DiagnosticLog) -> Document {
        var text = originalText
        var document = Document()
        while true {
            do {
                document.root = try Yams.compose(yaml: text)
                return document
            } catch let YamlError.duplicatedKeysInMapping(duplicates, context) {
                let name = duplicates.sorted().first ?? ""
                let first = SourcePosition(context.mark)
                let sentinel = DuplicateKeyLocator.sentinel(number: document.duplicateKeySentinels.count,
                                                            length: name.unicodeScalars.count)
                guard document.duplicateKeySentinels.count < maximumDuplicateKeys,
                      let (position, patched) = DuplicateKeyLocator(text: text)
                        .renamingSecondOccurrence(of: name, firstAt: first, to: sentinel)
                else {
                    log.error(at: first, "duplicate key '\(name)'")
                    return Document()
                }
                log.error(at: position, "duplicate key '\(name)' (first given at line \(first.line))")
                document.duplicateKeySentinels.insert(sentinel)
                text = patched
            } catch let error as YamlError {
                report(error, log: &log)
                return Document()
            } catch {
                log.error(at: .start, "cannot read YAML: \(error)")
                return Document()
            }
        }
    }

    private static func report(_ error: YamlError, log: inout DiagnosticLog) {
        switch error {
        case let .scanner(context, problem, mark, _),
             let .parser(context, problem, mark, _),
             let .composer(context, problem, mark, _):
            var message = "invalid YAML: \(problem)"
            if let context {
                message += " (\(context.text) at line \(context.mark.line), column \(context.mark.column))"
            }
            log.error(at: SourcePosition(mark), message)
        case let .reader(problem, offset, _, yaml):
            log.error(at: offset.map { position(ofCharacterOffset: $0, in: yaml) } ?? .start,
                      "invalid text: \(problem)")
        default:
            log.error(at: .start, "cannot read YAML: \(error)")
        }
    }

    private static func position(ofCharacterOffset offset: Int, in text: String) -> SourcePosition {
        var position = SourcePosition.start
        for character in text.prefix(offset) {
            if character.isNewline {
                position.line += 1
                position.column = 1
            } else {
                position.column += character.unicodeScalars.count
            }
        }
        return position
    }
}
