import Glibc
import MarqueeCore

/// The HDMI-CEC adapters present: every `/dev/cecN`, in number order, with what each says about
/// itself (read only: nothing is claimed or sent).
public enum CECInventory {
    /// The `cecN` nodes in `directory`, `/dev/cec2` before `/dev/cec10`.
    public static func paths(in directory: String = "/dev") -> [String] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var numbers: [Int] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: &entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if let number = adapterNumber(ofNodeName: name) { numbers.append(number) }
        }
        return numbers.sorted().map { "\(directory)/cec\($0)" }
    }

    /// N of `cecN`; nil for any other name.
    static func adapterNumber(ofNodeName name: String) -> Int? {
        guard name.hasPrefix("cec") else { return nil }
        let digits = name.dropFirst(3)
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(digits)
    }

    /// Each adapter's facts, or why it could not be read (permissions, a driver error).
    public static func adapters(in directory: String = "/dev") -> [Result<CECAdapterFacts, SystemError>] {
        paths(in: directory).map { path in
            Result { () throws(SystemError) -> CECAdapterFacts in try CECAdapter(path: path).facts() }
        }
    }
}
