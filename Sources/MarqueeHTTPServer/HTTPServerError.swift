/// A server that could not be started: the address as given and the cause, in one line.
public struct HTTPServerError: Error, Sendable, Equatable, CustomStringConvertible {
    public let address: String
    public let cause: String

    public init(address: String, cause: String) {
        self.address = address
        self.cause = cause
    }

    /// `cannot listen on 127.0.0.1:9150: Address already in use`
    public var description: String { "cannot listen on \(address): \(cause)" }
}
