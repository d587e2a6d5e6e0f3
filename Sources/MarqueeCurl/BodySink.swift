import MarqueeCore

/// Where the final response's body goes: memory for `fetch`, a file for `download`. Only a 2xx
/// body reaches it; the bodies of redirects and error statuses never do.
protocol BodySink: AnyObject {
    /// Before the first byte of a 2xx body, or at the end of a 2xx without one: the file is
    /// positioned (or truncated) here, once the status says whether the server resumed.
    func begin(_ headers: ResponseHeaders) throws(HTTPTransferError)
    func write(_ bytes: UnsafeRawBufferPointer) throws(HTTPTransferError)
    /// The whole resource's bytes held so far (a file's resumed part included).
    var bytesHeld: Int64 { get }
    /// Where this body started in the whole resource: the resume offset after a 206, else 0.
    var resumedFrom: Int64 { get }
}
