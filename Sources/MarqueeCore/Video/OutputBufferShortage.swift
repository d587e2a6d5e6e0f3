/// Every buffer of an output is lent out when the output needs one to draw into: a broken promise
/// of the pool's reserve, reported rather than trapped on.
public struct OutputBufferShortage: Error, CustomStringConvertible {
    public let output: String

    public init(output: String) {
        self.output = output
    }

    public var description: String { "\(output): every picture buffer is lent out; the picture is not drawn" }
}
