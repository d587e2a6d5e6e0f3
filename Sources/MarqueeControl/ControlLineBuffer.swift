import Glibc

/// Cuts one client's byte stream into lines, whatever pieces the kernel hands it in: a line can
/// arrive split over many reads, and one read can hold many lines. Holds at most `maxLineBytes`
/// (plus a "\r") of an unfinished line; a longer line is reported once and skipped up to its "\n".
struct ControlLineBuffer {
    let maxLineBytes: Int
    private var partial: [UInt8] = []
    /// Inside a line already reported too long: bytes are dropped until the next "\n".
    private var isDiscarding = false

    init(maxLineBytes: Int) {
        self.maxLineBytes = maxLineBytes
    }

    /// The lines `bytes` completes, in order.
    mutating func append(_ bytes: UnsafeRawBufferPointer, into inputs: inout [ControlSocketInput]) {
        guard let base = bytes.baseAddress else { return }
        var start = 0
        while start < bytes.count {
            let newline = memchr(base + start, Int32(UInt8(ascii: "\n")), bytes.count - start).map { UnsafeRawPointer($0) - base }
            let end = newline ?? bytes.count
            if isDiscarding {
                if newline != nil { isDiscarding = false }
            } else {
                // One byte of slack: a line of exactly maxLineBytes may still be followed by "\r\n".
                if partial.count + (end - start) > maxLineBytes + 1 {
                    partial.removeAll(keepingCapacity: false)
                    inputs.append(.lineTooLong(limit: maxLineBytes))
                    isDiscarding = newline == nil
                } else {
                    partial.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
                    if newline != nil { finishLine(into: &inputs) }
                }
            }
            start = end + 1
        }
    }

    /// At end of stream: the unterminated last line, if any.
    mutating func finish(into inputs: inout [ControlSocketInput]) {
        if !isDiscarding && !partial.isEmpty { finishLine(into: &inputs) }
        isDiscarding = false
    }

    private mutating func finishLine(into inputs: inout [ControlSocketInput]) {
        if partial.last == UInt8(ascii: "\r") { partial.removeLast() }
        if partial.count > maxLineBytes {
            inputs.append(.lineTooLong(limit: maxLineBytes))
        } else {
            inputs.append(.line(String(decoding: partial, as: UTF8.self)))
        }
        // A huge line's storage is not kept for the connection's life.
        partial.removeAll(keepingCapacity: partial.count <= 4096)
    }
}
