/// R9: a view whose background or tint color is dynamic is redrawn when any trait with
/// `affectsColorAppearance` changes, whether or not the resolved color changes.
extension TraitEnvironment {
    func colorAppearanceDidChange(_ changed: TraitSet) {
        if TraitRegistry.anyAffectsColorAppearance(changed) {
            setNeedsDisplay()
        }
    }
}

extension View {
    func colorsDidChange() {
        if backgroundColor?.isDynamic == true || ownTintColor?.isDynamic == true {
            flags.insert(.hasDynamicColor)
            summaryDidGrow()
        } else {
            flags.remove(.hasDynamicColor)
        }
        setNeedsDisplay()
    }
}
