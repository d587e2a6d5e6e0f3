/// A stretch of one line at one embedding level: shaped on its own in its direction, placed in
/// visual order among the line's other runs.
public struct BidiRun: Hashable, Sendable {
    /// UTF-8 byte offsets into the line, as HarfBuzz's clusters count them.
    public var utf8Range: Range<Int>
    public var level: UInt8
    public var direction: ShapedText.Direction { level % 2 == 0 ? .leftToRight : .rightToLeft }

    public init(utf8Range: Range<Int>, level: UInt8) {
        self.utf8Range = utf8Range
        self.level = level
    }

    /// The runs of `text` in visual order (left to right on screen), from one level per Unicode
    /// scalar: neighbouring scalars at one level form a run, then rule L2 of UAX #9 reverses, from
    /// the highest level down to the lowest odd one, every sequence of runs at that level or above.
    /// Characters inside a run are not reversed here: the shaper lays a right-to-left run out itself.
    public static func visualOrder(of text: String, levels: [UInt8]) -> [BidiRun] {
        var runs: [BidiRun] = []
        var offset = 0
        for (scalar, level) in zip(text.unicodeScalars, levels) {
            let end = offset + UTF8.width(scalar)
            if let last = runs.last, last.level == level {
                runs[runs.count - 1].utf8Range = last.utf8Range.lowerBound..<end
            } else {
                runs.append(BidiRun(utf8Range: offset..<end, level: level))
            }
            offset = end
        }
        guard let highest = runs.map(\.level).max(),
              let lowestOdd = runs.map(\.level).filter({ $0 % 2 == 1 }).min() else { return runs }
        for level in stride(from: Int(highest), through: Int(lowestOdd), by: -1) {
            var start = 0
            while start < runs.count {
                guard runs[start].level >= level else { start += 1; continue }
                var end = start
                while end < runs.count && runs[end].level >= level { end += 1 }
                runs[start..<end].reverse()
                start = end
            }
        }
        return runs
    }
}
