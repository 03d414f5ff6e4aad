import TraitKit
