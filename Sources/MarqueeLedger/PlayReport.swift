import Foundation

/// Plays summed the way an advertiser is billed: each play, or per hour or day (UTC) of its start,
/// per device, screen, daypart and item. Rows carry Xibo's proof-of-play columns where they apply.
public struct PlayReport: Sendable {
    public enum Grouping: String, CaseIterable, Sendable {
        case play, hour, day
    }

    public struct Row: Equatable, Sendable, Encodable {
        /// Always `media` (Xibo's type for a media play).
        public var type = "media"
        public var from: String
        public var to: String
        public var display: String
        public var screen: String
        public var daypart: String?
        public var mediaId: String
        public var title: String?
        /// Seconds shown, summed.
        public var duration: Double
        public var count: Int
        /// Plays that ran to their end (the rest were cut).
        public var completed: Int
    }

    public let grouping: Grouping
    /// Plays that start in [from, to), milliseconds since 1970; nil: unbounded.
    public let from: Int64?
    public let to: Int64?

    public init(grouping: Grouping, from: Int64? = nil, to: Int64? = nil) {
        self.grouping = grouping
        self.from = from
        self.to = to
    }

    public func rows(_ records: [LedgerRecord]) -> [Row] {
        let chosen = records.compactMap { record -> (LedgerRecord, Int64, Int64)? in
            guard let start = UTCTimestamp.milliseconds(parsing: record.start), let end = UTCTimestamp.milliseconds(parsing: record.end) else { return nil }
            if let from, start < from { return nil }
            if let to, start >= to { return nil }
            return (record, start, end)
        }.sorted { $0.1 < $1.1 }
        guard grouping != .play else {
            return chosen.map { record, _, _ in
                Row(from: record.start, to: record.end, display: record.device, screen: record.screen, daypart: record.daypart,
                    mediaId: record.item, title: record.title, duration: record.seconds, count: 1, completed: record.isCompleted ? 1 : 0)
            }
        }
        let span: Int64 = grouping == .hour ? 3_600_000 : 86_400_000
        struct Key: Hashable { var bucket: Int64, device: String, screen: String, daypart: String?, item: String }
        var order: [Key] = []
        var sums: [Key: Row] = [:]
        for (record, start, _) in chosen {
            let bucket = start.dividedRoundingDown(by: span) * span
            let key = Key(bucket: bucket, device: record.device, screen: record.screen, daypart: record.daypart, item: record.item)
            if var row = sums[key] {
                row.duration += record.seconds
                row.count += 1
                row.completed += record.isCompleted ? 1 : 0
                sums[key] = row
            } else {
                order.append(key)
                sums[key] = Row(from: UTCTimestamp.text(milliseconds: bucket), to: UTCTimestamp.text(milliseconds: bucket + span),
                                display: record.device, screen: record.screen, daypart: record.daypart, mediaId: record.item,
                                title: record.title, duration: record.seconds, count: 1, completed: record.isCompleted ? 1 : 0)
            }
        }
        return order.map { key in
            var row = sums[key]!
            row.duration = (row.duration * 1000).rounded() / 1000
            return row
        }
    }

    public static let csvHeader = ["type", "from", "to", "display", "screen", "daypart", "mediaId", "title", "duration", "count", "completed"]

    /// RFC 4180: a header line, then one line per row, CRLF line ends.
    public static func csv(_ rows: [Row]) -> String {
        var lines = [csvHeader.joined(separator: ",")]
        for row in rows {
            let fields = [row.type, row.from, row.to, row.display, row.screen, row.daypart ?? "", row.mediaId, row.title ?? "",
                          plain(row.duration), String(row.count), String(row.completed)]
            lines.append(fields.map(quoted).joined(separator: ","))
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    private static func quoted(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// `12.5`, `10` (no trailing `.0`).
    static func plain(_ seconds: Double) -> String {
        let rounded = (seconds * 1000).rounded() / 1000
        return rounded == rounded.rounded() ? String(Int64(rounded)) : String(rounded)
    }
}
