/** Offline review of an export folder: verification verdict, manifest facts, and the records. */
export const review = {
  'pt-BR': {
    title: 'Revisão offline',
    intro:
      'Abra uma pasta de exportação para conferir os registros. Funciona sem perfil, sem login e sem internet: o aplicativo confere a integridade de cada arquivo (SHA-256) e a assinatura do manifesto.',
    open: 'Abrir pasta de exportação…',
    opening: 'Abrindo…',
    openAnother: 'Abrir outra pasta…',
    close: 'Fechar revisão',
    cancelled: 'Nenhuma pasta escolhida.',
    folder: 'Pasta',
    verified: {
      title: 'Verificação OK: os arquivos estão íntegros e foram assinados pela chave esperada.',
      fingerprint: 'Impressão digital da chave que assinou',
    },
    signer: {
      unknownTitle:
        'Arquivos íntegros, mas o manifesto foi assinado por uma chave desconhecida: ainda não dá para saber quem exportou.',
      none: 'Nenhuma impressão digital esperada foi informada. Qualquer pessoa pode assinar uma exportação com uma chave própria.',
      mismatch:
        'A impressão digital informada NÃO é a da chave que assinou: esta exportação não veio do computador esperado.',
      thisComputer:
        'Preenchida com a chave de assinatura deste computador, que é a que assinou esta exportação.',
      label: 'Impressão digital esperada do signatário',
      hint: 'Obtenha-a por outro canal (telefone, pessoalmente) no computador que exportou, em Configurações, e cole aqui.',
      compare: 'Comparar',
      invalid: 'Uma impressão digital tem 32 dígitos hexadecimais (0–9, a–f).',
    },
    failed: {
      banner: 'VERIFICAÇÃO FALHOU: estes registros podem ter sido alterados. Não os use como prova.',
      title: 'A verificação encontrou problemas',
      intro: 'Os registros continuam visíveis abaixo só para inspeção.',
      caption: 'Problemas encontrados na verificação',
      file: 'Arquivo',
      check: 'Verificação',
      detail: 'Detalhe',
      technical: 'Detalhes técnicos (em inglês, para o suporte)',
      fingerprint: 'Impressão digital da chave no manifesto (não confiável)',
      checks: {
        missing: 'arquivo ausente',
        hash: 'conteúdo alterado (SHA-256 não confere)',
        signature: 'assinatura inválida',
        schema: 'formato inválido',
        row_count: 'quantidade de linhas não confere',
        totals: 'totais não conferem',
        audit: 'trilha de auditoria não confere com os registros',
      },
    },
    manifest: {
      heading: 'Dados do manifesto',
      unverified: 'Lidos do manifesto, que NÃO passou na verificação.',
      missing: 'O manifesto não pôde ser lido.',
      appVersion: 'Versão do aplicativo',
      profile: 'Perfil',
      network: 'Rede',
      exportedAt: 'Exportado em',
      rowCount: 'Linhas declaradas',
      rowsRead: 'Linhas lidas',
    },
    ledgerCheck: {
      heading: 'Conferência com o livro-caixa',
      intro:
        'Confere se a trilha de auditoria desta exportação faz parte do histórico do livro-caixa deste computador, sem alterações. Serve para exportações feitas neste computador.',
      button: 'Conferir com o livro-caixa deste computador',
      checking: 'Conferindo…',
      checkedAt: 'Conferido em',
      verdicts: {
        match: {
          title: 'Confere com o livro-caixa deste computador.',
          body: 'A trilha de auditoria da exportação (até a entrada {{exportSeq}}) é a mesma deste livro-caixa, que hoje vai até a entrada {{ledgerSeq}}: os registros exportados são os que este livro-caixa registrou.',
        },
        not_in_ledger: {
          title: 'NÃO confere: a exportação vai além deste livro-caixa.',
          body: 'A exportação chega à entrada {{exportSeq}} da trilha de auditoria, mas este livro-caixa termina na entrada {{ledgerSeq}}. Ela veio de outro computador, ou este livro-caixa foi substituído por uma cópia mais antiga.',
        },
        different_history: {
          title: 'NÃO confere: o histórico da exportação é outro.',
          body: 'A entrada {{exportSeq}} da trilha de auditoria da exportação não é a deste livro-caixa. A exportação veio de outro livro-caixa, ou o histórico de um dos dois foi reescrito.',
        },
        entries_differ: {
          title: 'NÃO confere: entradas da trilha de auditoria faltam ou diferem.',
          body: 'O ponto final da exportação confere, mas entradas da trilha de auditoria dela faltam ou diferem das deste livro-caixa: a exportação foi alterada e assinada de novo.',
        },
        ledger_broken: {
          title: 'Não foi possível conferir: a trilha de auditoria deste livro-caixa não confere.',
          body: 'O livro-caixa deste computador foi alterado fora do aplicativo e não serve de referência. Restaure um backup em Configurações ou procure o responsável.',
        },
        no_audit: {
          title: 'Nada a conferir: esta exportação não tem trilha de auditoria.',
          body: 'Ela foi feita por uma versão anterior do aplicativo.',
        },
      },
    },
    records: 'Registros da exportação',
    unverifiedRecords: 'Registros NÃO verificados',
    panel: {
      heading: 'Registro {{id}}',
      close: 'Fechar registro',
      readOnly: 'Somente leitura: dados como estão na exportação.',
    },
  },
  en: {
    title: 'Offline review',
    intro:
      'Open an export folder to check its records. Works with no profile, no sign-in and no internet: the app checks each file’s hash and the manifest signature.',
    open: 'Open export folder…',
    opening: 'Opening…',
    openAnother: 'Open another folder…',
    close: 'Close review',
    cancelled: 'No folder chosen.',
    folder: 'Folder',
    verified: {
      title: 'Verification OK: the files are intact and were signed by the expected key.',
      fingerprint: 'Fingerprint of the signing key',
    },
    signer: {
      unknownTitle: 'Files intact, but signed by an unknown key: who exported them cannot be told yet.',
      none: 'No expected fingerprint was given. Anyone can sign an export with a key of their own.',
      mismatch:
        'The fingerprint given is NOT the signing key’s: this export did not come from the expected computer.',
      thisComputer: 'Prefilled with this computer’s signing key, which is the key that signed this export.',
      label: 'Expected signer fingerprint',
      hint: 'Get it over another channel (phone, in person) from Settings on the computer that exported, and paste it here.',
      compare: 'Compare',
      invalid: 'A fingerprint is 32 hexadecimal digits (0–9, a–f).',
    },
    failed: {
      banner: 'VERIFICATION FAILED: these records may have been altered. Do not rely on them as evidence.',
      title: 'Verification found problems',
      intro: 'The records are still shown below for inspection only.',
      caption: 'Problems found by verification',
      file: 'File',
      check: 'Check',
      detail: 'Detail',
      technical: 'Technical details (for support)',
      fingerprint: 'Key fingerprint in the manifest (not trusted)',
      checks: {
        missing: 'file missing',
        hash: 'SHA-256 hash does not match',
        signature: 'invalid signature',
        schema: 'invalid format',
        row_count: 'row count does not match',
        totals: 'totals do not match',
        audit: 'audit trail does not match the records',
      },
    },
    manifest: {
      heading: 'Manifest facts',
      unverified: 'Read from the manifest, which did NOT pass verification.',
      missing: 'The manifest could not be read.',
      appVersion: 'App version',
      profile: 'Profile',
      network: 'Network',
      exportedAt: 'Exported at',
      rowCount: 'Rows declared',
      rowsRead: 'Rows read',
    },
    ledgerCheck: {
      heading: 'Check with the ledger',
      intro:
        'Checks that this export’s audit trail is part of this computer’s ledger history, unchanged. Meant for exports made on this computer.',
      button: 'Check with this computer’s ledger',
      checking: 'Checking…',
      checkedAt: 'Checked at',
      verdicts: {
        match: {
          title: 'Matches this computer’s ledger.',
          body: 'The export’s audit trail (up to entry {{exportSeq}}) is this ledger’s, which now goes up to entry {{ledgerSeq}}: the exported records are the ones this ledger recorded.',
        },
        not_in_ledger: {
          title: 'Does NOT match: the export goes beyond this ledger.',
          body: 'The export reaches audit entry {{exportSeq}}, but this ledger ends at entry {{ledgerSeq}}. It came from another computer, or this ledger was replaced by an older copy.',
        },
        different_history: {
          title: 'Does NOT match: the export has another history.',
          body: 'Audit entry {{exportSeq}} of the export is not this ledger’s. The export came from another ledger, or the history of one of them was rewritten.',
        },
        entries_differ: {
          title: 'Does NOT match: audit entries are missing or differ.',
          body: 'The export’s last entry matches, but some of its audit entries are missing or differ from this ledger’s: the export was altered and signed again.',
        },
        ledger_broken: {
          title: 'Cannot check: this ledger’s audit trail does not check out.',
          body: 'This computer’s ledger was changed outside the app and is no reference. Restore a backup in Settings or ask whoever is responsible.',
        },
        no_audit: {
          title: 'Nothing to check: this export has no audit trail.',
          body: 'It was made by an earlier version of the app.',
        },
      },
    },
    records: 'Records in the export',
    unverifiedRecords: 'UNVERIFIED records',
    panel: {
      heading: 'Record {{id}}',
      close: 'Close record',
      readOnly: 'Read only: data as it is in the export.',
    },
  },
} as const
