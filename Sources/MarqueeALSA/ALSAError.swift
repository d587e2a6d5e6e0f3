import CALSA
import Glibc

/// A failed ALSA call: the operation, the PCM or card it was on, the negative errno ALSA returned
/// and snd_strerror's text, in one line: `ALSA snd_pcm_open on 'hw:9,0': No such file or directory (-2)`.
public struct ALSAError: Error, Equatable, CustomStringConvertible, Sendable {
    public let operation: String
    public let device: String
    /// ALSA's return code: a negative errno.
    public let code: Int32
    public let message: String

    init(_ operation: String, device: String, code: Int32) {
        self.operation = operation
        self.device = device
        self.code = code
        message = snd_strerror(code).map { String(cString: $0) } ?? "error \(code)"
    }

    /// A problem found by Marquee rather than returned by ALSA (code 0).
    init(_ operation: String, device: String, message: String) {
        self.operation = operation
        self.device = device
        code = 0
        self.message = message
    }

    public var description: String {
        code == 0 ? "ALSA \(operation) on '\(device)': \(message)"
                  : "ALSA \(operation) on '\(device)': \(message) (\(code))"
    }

    /// The device is gone or was never there: worth retrying later rather than a bug.
    public var meansDeviceMissing: Bool {
        [-ENODEV, -ENOENT, -ENXIO, -EBADFD, -EIO, -EBUSY].contains(code)
    }
}

/// Throws an ALSAError for a negative return code; passes others through.
@discardableResult
func check(_ code: Int32, _ operation: String, device: String) throws(ALSAError) -> Int32 {
    if code < 0 { throw ALSAError(operation, device: device, code: code) }
    return code
}

/// alsa-lib's own stderr printer is silenced once, before the first call that could print.
let quietLibraryErrors: Void = {
    _ = marquee_alsa_silence_library_errors()
}()
