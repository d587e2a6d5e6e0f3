import ArgumentParser
import Foundation
import MarqueeLedger
import MarqueeMedia

/// `marquee report LEDGER... [--from DAY|TIME] [--to DAY|TIME] [--by play|hour|day] [--format csv|json] [--verify]`:
/// the play ledger summed for billing, or its hash chains checked. Exit status 1 when a chain is
/// broken (named on stderr, first broken record per file) or a path cannot be read.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Proof of play from the play ledger: each play, or sums per hour or day (UTC), as CSV or JSON; --verify checks the hash chains."
    )

    @Argument(help: "Ledger files (plays-YYYY-MM-DD.jsonl) or folders of them.")
    var ledgers: [String]

    @Option(help: "Plays that start at or after this UTC day or time (2026-11-29 or 2026-11-29T08:00:00Z).")
    var from: String?

    @Option(help: "Plays that start before this UTC day or time.")
    var to: String?

    @Option(help: "One row per play, or sums per item and hour or day: play, hour or day.")
    var by: String = PlayReport.Grouping.play.rawValue

    @Option(help: "csv (RFC 4180, with Xibo's proof-of-play columns where they apply) or json.")
    var format: String = "csv"

    @Flag(help: "Check each file's hash chain and numbering instead of reporting: names the first broken record of each file.")
    var verify = false

    func validate() throws {
        if ledgers.isEmpty { throw ValidationError("give at least one ledger file or folder") }
        if PlayReport.Grouping(rawValue: by) == nil { throw ValidationError("--by must be play, hour or day") }
        if !["csv", "json"].contains(format) { throw ValidationError("--format must be csv or json") }
    }

    func run() throws {
        let sources: [LedgerReader.Source]
        do {
            sources = try LedgerReader().sources(ledgers)
        } catch {
            throw CommandValues.fail("\(error)")
        }
        if verify { return try verifyChains(sources) }
        let start = try from.map { try Self.bound($0, option: "--from") }
        let end = try to.map { try Self.bound($0, option: "--to") }
        let (records, unreadable) = LedgerReader().records(sources)
        if unreadable > 0 {
            FileHandle.standardError.write(Data("marquee report: skipped \(unreadable) line\(unreadable == 1 ? "" : "s") that are not records (check with --verify)\n".utf8))
        }
        let rows = PlayReport(grouping: PlayReport.Grouping(rawValue: by)!, from: start, to: end).rows(records)
        if format == "csv" {
            FileHandle.standardOutput.write(Data(PlayReport.csv(rows).utf8))
        } else {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            FileHandle.standardOutput.write(try encoder.encode(rows) + Data("\n".utf8))
        }
    }

    private func verifyChains(_ sources: [LedgerReader.Source]) throws {
        let check = LedgerChainCheck(digest: FileSHA256())
        var broken = 0
        for source in sources {
            let outcome = check.check(source.data)
            if let problem = outcome.broken {
                broken += 1
                FileHandle.standardError.write(Data("\(source.path): \(problem)\n".utf8))
            } else {
                print("\(source.path): \(outcome.records) record\(outcome.records == 1 ? "" : "s"), chain intact")
            }
        }
        if broken > 0 { throw ExitCode(1) }
    }

    private static func bound(_ text: String, option: String) throws -> Int64 {
        guard let milliseconds = UTCTimestamp.milliseconds(parsing: text) else {
            throw CommandValues.fail("\(option) \(text): expected a UTC day (2026-11-29) or time (2026-11-29T08:00:00Z)")
        }
        return milliseconds
    }
}
