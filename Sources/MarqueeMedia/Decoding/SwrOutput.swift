import CFFmpeg

/// Runs `swr_convert` into fresh interleaved Float32 buffers for a context its caller owns: the
/// format converter and the drift compensator share it.
enum SwrOutput {
    /// One `swr_convert` into a buffer sized by `swr_get_out_samples` for `inputCount` more input
    /// samples (its bound includes what is buffered), plus `margin`; keeps what the call wrote.
    static func produce(_ context: OpaquePointer, channels: Int, inputCount: Int, margin: Int32 = 0,
                        operation: @autoclosure () -> String,
                        _ convert: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, Int32) -> Int32) throws(FFmpegError) -> [Float] {
        let bound = try checked(swr_get_out_samples(context, Int32(inputCount)), "swr_get_out_samples")
        guard bound > 0 || inputCount > 0 else { return [] }
        let capacity = bound + margin
        var written: Int32 = 0
        let samples = [Float](unsafeUninitializedCapacity: max(Int(capacity), 1) * channels) { buffer, initialized in
            var interleaved = UnsafeMutableRawPointer(buffer.baseAddress).map { $0.assumingMemoryBound(to: UInt8.self) }
            written = convert(&interleaved, capacity)
            initialized = Int(max(written, 0)) * channels
        }
        guard written >= 0 else { throw FFmpegError(code: written, operation: operation()) }
        return samples
    }

    /// Everything the context still holds back: flushing with a NULL input makes swr pad its filter
    /// and let the tail out.
    static func drain(_ context: OpaquePointer, channels: Int, operation: @autoclosure () -> String) throws(FFmpegError) -> [Float] {
        var samples: [Float] = []
        while true {
            let tail = try produce(context, channels: channels, inputCount: 0, operation: operation()) { output, capacity in
                swr_convert(context, output, capacity, nil, 0)
            }
            guard !tail.isEmpty else { return samples }
            samples += tail
        }
    }
}
