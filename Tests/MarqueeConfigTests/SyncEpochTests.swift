import Foundation
import MarqueeConfig
import Testing

/// `sync.epoch` is kept to the millisecond, written as an instant or as Unix seconds; finer than a
/// millisecond is refused (not rounded), saying so.
@Suite struct SyncEpochTests {
    /// The epoch's milliseconds, or the errors' `LINE:COLUMN: message`.
    static func load(epoch: String) throws -> (milliseconds: Int64?, errors: [String]) {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("wall.yaml", "sync:\n  epoch: \(epoch)\nplaylist:\n  items: [a.mp4]\n")
        let result = ConfigurationLoader.load(path: path, checkingMediaFiles: false)
        let errors = result.diagnostics.filter { $0.severity == .error }.map { "\($0.line):\($0.column): \($0.message)" }
        return (result.configuration?.sync?.epochUnixMilliseconds, errors)
    }

    @Test(arguments: [
        // 2026-11-27T10:00:00Z is 1795773600 s after 1970.
        ("\"2026-11-27T10:00:00.250Z\"", Int64(1_795_773_600_250)),
        ("\"2026-11-27T11:00:00.25+01:00\"", 1_795_773_600_250),
        ("\"2026-11-27T10:00:00.2500Z\"", 1_795_773_600_250),
        ("\"2026-11-27T10:00:00.007z\"", 1_795_773_600_007),
        ("\"2026-11-27T10:00:00Z\"", 1_795_773_600_000),
        ("1764237600.25", 1_764_237_600_250),
        ("1764237600.123", 1_764_237_600_123),
        ("\"1764237600.999\"", 1_764_237_600_999),
        ("1764237600", 1_764_237_600_000),
        ("-1.5", -1_500),
    ])
    func aFractionalEpochIsKeptToTheMillisecond(epoch: String, milliseconds: Int64) throws {
        let loaded = try Self.load(epoch: epoch)
        #expect(loaded.errors.isEmpty, "\(loaded.errors)")
        #expect(loaded.milliseconds == milliseconds)
    }

    @Test(arguments: ["\"2026-11-27T10:00:00.2504Z\"", "1764237600.2504", "1764237600.123456789"])
    func finerThanAMillisecondIsRefusedSayingSo(epoch: String) throws {
        let loaded = try Self.load(epoch: epoch)
        #expect(loaded.milliseconds == nil)
        #expect(loaded.errors.count == 1, "\(loaded.errors)")
        #expect(loaded.errors.first?.hasPrefix("2:10: the sync epoch is kept to the millisecond: ") == true, "\(loaded.errors)")
        #expect(loaded.errors.first?.contains("has fractional seconds finer than that") == true, "\(loaded.errors)")
    }

    @Test(arguments: ["\"2026-11-27T10:00:00.250\"", "\"2026-11-27T10:00:00.Z\"", "\"2026-11-27T10:00:00.2a5Z\"", "1764237600.", "ten"])
    func anInstantWithoutItsZoneOrABrokenFractionIsNoInstant(epoch: String) throws {
        let loaded = try Self.load(epoch: epoch)
        #expect(loaded.milliseconds == nil)
        #expect(loaded.errors.count == 1, "\(loaded.errors)")
        #expect(loaded.errors.first?.hasPrefix("2:10: expected an ISO 8601 instant with its zone for the sync epoch") == true, "\(loaded.errors)")
    }
}
