/// Where the control service's replies and events go: the socket server, or a test's recorder.
/// `send` never blocks: a client that does not read is the transport's to deal with.
public protocol ControlTransport: AnyObject, Sendable {
    func send(_ line: String, to peer: Int)
}
extension ControlSocketServer: ControlTransport {}
