/// What one client sent, one line at a time.
public enum ControlSocketInput: Sendable, Equatable {
    /// One line without its "\n" (and without a "\r" before it). Bytes that are not UTF-8 come out
    /// as U+FFFD, so the protocol layer always gets a String it can hand to a JSON parser, which
    /// then reports the line as malformed. A last line the client ended with a hang-up instead of a
    /// "\n" counts too (`printf '{…}' | socat - UNIX:…`).
    case line(String)
    /// A line grew past `maxLineBytes`. It is reported once, as soon as it passes the limit (a client
    /// that never sends "\n" would otherwise be held in memory without bound); its bytes up to the
    /// next "\n" are discarded, and the connection stays open.
    case lineTooLong(limit: Int)
}
