import Foundation
import Yams

extension ConfigurationDecoder {
    static let proofOfPlayKeys = ["dir", "maxBytes", "keepDays"]

    /// `proofOfPlay: true|false` or `{dir: /var/lib/marquee/ledger, maxBytes: 64M, keepDays: 90}`.
    mutating func decodeProofOfPlay(_ node: Node) -> ProofOfPlayConfiguration {
        var ledger = ProofOfPlayConfiguration()
        if case .scalar = node, !isNothing(node) {
            ledger.enabled = bool(node)
            return ledger
        }
        guard let fields = fields(of: node, in: "proofOfPlay", allowed: Self.proofOfPlayKeys) else { return ledger }
        ledger.enabled = true
        ledger.directory = fields["dir"].flatMap { filePath($0.value, expected: "a folder for the play ledger") }
        if let node = fields["maxBytes"]?.value {
            if case .scalar(let scalar) = node, let bytes = CacheConfiguration.parseBytes(scalar.string), bytes >= 64 << 10 {
                ledger.maxBytes = bytes
            } else {
                log.error(at: SourcePosition(of: node), "expected a size of at least 64K such as 64M, found \(describe(node))")
            }
        }
        if let node = fields["keepDays"]?.value, let days = wholeNumber(node) {
            if ProofOfPlayConfiguration.keepDaysRange.contains(days) {
                ledger.keepDays = days
            } else {
                log.error(at: SourcePosition(of: node), "keepDays \(days) is out of range (expected 1 to 3660 days)")
            }
        }
        return ledger
    }

    /// `device: {id: lobby-3}`.
    mutating func decodeDevice(_ node: Node) -> DeviceConfiguration {
        var device = DeviceConfiguration()
        guard let fields = fields(of: node, in: "device", allowed: ["id"]) else { return device }
        if let node = fields["id"]?.value, let text = string(node, expected: "the device's id") {
            let id = text.trimmingCharacters(in: .whitespaces)
            if id.isEmpty || id.contains(where: \.isNewline) || id.count > 200 {
                log.error(at: SourcePosition(of: node), "expected a device id of 1 to 200 characters on one line, found \(describe(node))")
            } else {
                device.id = id
            }
        }
        return device
    }
}
