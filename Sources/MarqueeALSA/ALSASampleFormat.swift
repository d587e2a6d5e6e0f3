/// The sample formats Marquee writes, best first: float passes the engine's samples through,
/// the integer ones are converted in Swift with rounding and clipping.
public enum ALSASampleFormat: String, CaseIterable, Sendable, Equatable {
    case float32 = "FLOAT_LE"
    case signed32 = "S32_LE"
    case signed16 = "S16_LE"

    public var bytesPerSample: Int {
        switch self {
        case .float32, .signed32: 4
        case .signed16: 2
        }
    }

    /// The first of `preference` the device accepts; nil when it takes none of them.
    public static func choose(from preference: [ALSASampleFormat], accepted: (ALSASampleFormat) -> Bool) -> ALSASampleFormat? {
        preference.first(where: accepted)
    }

    /// Interleaved float samples (nominally −1...1) as little-endian bytes in this format.
    public func encode(_ samples: ArraySlice<Float>, into bytes: inout [UInt8]) {
        bytes.removeAll(keepingCapacity: true)
        bytes.reserveCapacity(samples.count * bytesPerSample)
        switch self {
        case .float32:
            for sample in samples { Self.append(sample.bitPattern, to: &bytes) }
        case .signed32:
            for sample in samples { Self.append(UInt32(bitPattern: Self.integer(sample, max: 2_147_483_647)), to: &bytes) }
        case .signed16:
            for sample in samples {
                let value = UInt16(bitPattern: Int16(Self.integer(sample, max: 32767)))
                bytes.append(UInt8(value & 0xFF))
                bytes.append(UInt8(value >> 8))
            }
        }
    }

    /// Rounded and clipped to ±max; NaN becomes silence.
    static func integer(_ sample: Float, max: Int32) -> Int32 {
        guard !sample.isNaN else { return 0 }
        let scaled = (Double(sample) * Double(max)).rounded()
        return Int32(Swift.min(Double(max), Swift.max(-Double(max), scaled)))
    }

    private static func append(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes.append(UInt8(value & 0xFF))
        bytes.append(UInt8((value >> 8) & 0xFF))
        bytes.append(UInt8((value >> 16) & 0xFF))
        bytes.append(UInt8(value >> 24))
    }
}
