import Glibc

/// One failed call on an input device: the errno, what was being done, and strerror's text.
/// Swift values only, so the CLI can print it (probe) without seeing libevdev.
public struct InputDeviceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A positive errno value (EACCES, ENODEV, EBUSY ...).
    public let code: Int32
    /// What failed, with its object: `open(/dev/input/event3)`, `libevdev_grab(/dev/input/event3)`.
    public let operation: String
    public let message: String

    init(code: Int32, operation: String) {
        self.code = code
        self.operation = operation
        self.message = String(cString: strerror(code))
    }

    /// `open(/dev/input/event3): Permission denied`.
    public var description: String { "\(operation): \(message)" }
}
