/// A lent view of 32-bit XRGB8888 pixels (little-endian: bytes B, G, R, X) that a video output owns:
/// a DRM dumb buffer or a headless canvas. Decoders convert straight into it.
///
/// It is only valid inside the closure that lends it (`withPixelBuffer`); never store it.
public struct PixelBuffer {
    public let baseAddress: UnsafeMutableRawPointer
    public let bytesPerRow: Int
    public let size: PixelSize

    public init(baseAddress: UnsafeMutableRawPointer, bytesPerRow: Int, size: PixelSize) {
        precondition(bytesPerRow >= size.width * 4, "row stride shorter than a row")
        self.baseAddress = baseAddress
        self.bytesPerRow = bytesPerRow
        self.size = size
    }

    /// Copies the pixels both buffers share (the top-left overlap), row by row across their strides.
    public func copy(to other: PixelBuffer) {
        let rowBytes = min(size.width, other.size.width) * 4
        for y in 0..<min(size.height, other.size.height) {
            (other.baseAddress + y * other.bytesPerRow).copyMemory(from: baseAddress + y * bytesPerRow, byteCount: rowBytes)
        }
    }

    /// Paints `rect` (clipped to the buffer) one colour; used for the background around a picture.
    public func fill(_ rect: PixelRect, with color: RGBColor) {
        let x0 = max(0, rect.x), y0 = max(0, rect.y)
        let x1 = min(size.width, rect.maxX), y1 = min(size.height, rect.maxY)
        guard x0 < x1, y0 < y1 else { return }
        let pixel = color.xrgb8888
        for y in y0..<y1 {
            let row = (baseAddress + y * bytesPerRow).assumingMemoryBound(to: UInt32.self)
            for x in x0..<x1 { row[x] = pixel }
        }
    }

    /// Paints everything outside `rect`: the letterbox or pillarbox bars.
    public func fill(outside rect: PixelRect, with color: RGBColor) {
        let whole = PixelRect(size: size)
        fill(PixelRect(x: 0, y: 0, width: whole.width, height: max(0, rect.y)), with: color)
        fill(PixelRect(x: 0, y: rect.maxY, width: whole.width, height: max(0, whole.height - rect.maxY)), with: color)
        fill(PixelRect(x: 0, y: rect.y, width: max(0, rect.x), height: rect.height), with: color)
        fill(PixelRect(x: rect.maxX, y: rect.y, width: max(0, whole.width - rect.maxX), height: rect.height), with: color)
    }

    public func pixel(x: Int, y: Int) -> RGBColor {
        let value = (baseAddress + y * bytesPerRow).assumingMemoryBound(to: UInt32.self)[x]
        return RGBColor(xrgb8888: value)
    }
}
