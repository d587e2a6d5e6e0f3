import Foundation
import Yams

extension ConfigurationDecoder {
    static let proofOfPlayKeys = ["dir", "maxBytes", "keepDays", "upload"]
    static let uploadKeys = ["url", "credentials", "caFile", "interval", "timeout"]

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
        ledger.upload = fields["upload"].flatMap { decodeUpload($0.value) }
        return ledger
    }

    /// `upload: {url: https://cms/pop, credentials: FILE, caFile: FILE, interval: 60}`, or just the url.
    private mutating func decodeUpload(_ node: Node) -> ProofOfPlayConfiguration.Upload? {
        if case .scalar = node, !isNothing(node) { return uploadURL(node).map { ProofOfPlayConfiguration.Upload(url: $0) } }
        guard let fields = fields(of: node, in: "proofOfPlay.upload", allowed: Self.uploadKeys, allowsNothing: false) else { return nil }
        guard let urlField = fields["url"] else {
            log.error(at: SourcePosition(of: node), "proofOfPlay.upload is missing 'url' (where the records are sent)")
            return nil
        }
        guard let url = uploadURL(urlField.value) else { return nil }
        var upload = ProofOfPlayConfiguration.Upload(url: url)
        upload.credentials = fields["credentials"].flatMap { filePath($0.value, expected: "a file holding username:password") }
        upload.caFile = fields["caFile"].flatMap { filePath($0.value, expected: "a file of CA certificates (PEM)") }
        decodePace(fields, interval: &upload.interval, timeout: &upload.timeout)
        return upload
    }

    /// `interval` and `timeout` of a way the records leave by (`proofOfPlay.upload`,
    /// `mqtt.proofOfPlay`), each kept only within its range.
    mutating func decodePace(_ fields: [String: MappingField], interval: inout Double, timeout: inout Double) {
        if let node = fields["interval"]?.value, let seconds = number(node) {
            if ProofOfPlayConfiguration.Upload.intervalRange.contains(seconds) {
                interval = seconds
            } else {
                log.error(at: SourcePosition(of: node), "interval \(Self.plain(seconds)) s is out of range (expected 1 to 86400 seconds)")
            }
        }
        if let node = fields["timeout"]?.value, let seconds = number(node) {
            if ProofOfPlayConfiguration.Upload.timeoutRange.contains(seconds) {
                timeout = seconds
            } else {
                log.error(at: SourcePosition(of: node), "timeout \(Self.plain(seconds)) s is out of range (expected 1 to 300 seconds)")
            }
        }
    }

    private mutating func uploadURL(_ node: Node) -> URL? {
        guard let text = string(node, expected: "an http(s) URL the records are POSTed to") else { return nil }
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
            log.error(at: SourcePosition(of: node), "expected an http(s) URL the records are POSTed to, found '\(text)'")
            return nil
        }
        return url
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
