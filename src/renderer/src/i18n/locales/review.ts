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
      // Issue #16: on a team profile the check reads the team ledger (every desk's exports belong to it).
      team: {
        intro:
          'Confere se a trilha de auditoria desta exportação faz parte do histórico do livro-caixa da equipe, sem alterações. Serve para exportações feitas por qualquer estação da equipe.',
        button: 'Conferir com o livro-caixa da equipe',
        matchTitle: 'Confere com o livro-caixa da equipe.',
        brokenBody:
          'O livro-caixa da equipe foi alterado fora do aplicativo (direto no servidor) e não serve de referência. Procure o responsável pelo servidor.',
      },
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
    olderCheck: {
      heading: 'Comparação com uma exportação anterior',
      intro:
        'Se você guardou fora deste computador uma exportação anterior do mesmo livro-caixa, compare as duas: o aplicativo confere que o histórico desta exportação continua o daquela, só com acréscimos. Só uma cópia guardada fora do computador protege contra quem consegue reescrever o livro-caixa inteiro.',
      button: 'Comparar com uma exportação anterior…',
      checking: 'Comparando…',
      checkedAt: 'Comparado em',
      olderExportedAt: 'Exportação anterior feita em',
      olderSigner: 'Impressão digital da chave que assinou a exportação anterior',
      verdicts: {
        extends: {
          title: 'Comprovado: o histórico só cresceu desde a exportação anterior.',
          body: 'A trilha de auditoria desta exportação passa pela entrada {{olderSeq}}, a última da exportação anterior, e segue até a entrada {{openSeq}}. Registros presentes nas duas: {{common}}; neles, as entradas e os dados do pedido são os mesmos. Nada foi reescrito, só acrescentado.',
        },
        head_not_carried: {
          title: 'Não foi possível comprovar: esta exportação não traz a última entrada da anterior.',
          body: 'A entrada {{olderSeq}}, a última da exportação anterior, não é sobre nenhum registro desta exportação (por exemplo, outra exportação feita logo antes), então a ligação entre as duas não pode ser mostrada. Registros presentes nas duas: {{common}}; neles, nada diverge. Compare com outra exportação anterior, ou confira com o livro-caixa no computador que exportou.',
        },
        older_is_newer: {
          title: 'Não foi possível comprovar: a exportação escolhida como anterior é mais recente que esta.',
          body: 'A escolhida chega à entrada {{olderSeq}} da trilha de auditoria; esta, só à entrada {{openSeq}}. Abra a exportação mais recente e compare com a mais antiga. Se esta for de fato a mais recente, o histórico voltou atrás: procure o responsável.',
        },
        other_signer: {
          title: 'Não foi possível comprovar: a exportação anterior foi assinada por outra chave.',
          body: 'As duas não vieram do mesmo computador, ou a chave de assinatura foi trocada entre elas. Confirme por outro canal (telefone, pessoalmente) qual chave cada uma deveria ter.',
        },
        no_audit: {
          title: 'Não foi possível comprovar: uma das exportações não tem trilha de auditoria.',
          body: 'Ela foi feita por uma versão anterior do aplicativo, ou não inclui o arquivo JSON dos registros.',
        },
        diverged: {
          title: 'NÃO confere: o histórico foi reescrito desde a exportação anterior.',
          body: 'Entradas da trilha de auditoria ou dados do pedido (chave Pix, valor) de registros presentes nas duas exportações diferem, ou a entrada {{olderSeq}}, a última da anterior, é outra. Não use estes registros como prova e procure o responsável.',
        },
        older_not_intact: {
          title: 'NÃO confere: a exportação anterior não passou na verificação.',
          body: 'Um arquivo da pasta escolhida foi alterado, falta, ou não é um arquivo comum (um atalho, por exemplo): ela não serve de referência. Os problemas estão nos detalhes técnicos.',
        },
        open_not_intact: {
          title: 'Nada a comparar: esta exportação não passou na verificação.',
          body: 'Uma exportação que não confere não prova nada. Veja os problemas acima.',
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
      team: {
        intro:
          'Checks that this export’s audit trail is part of the team ledger’s history, unchanged. Meant for exports made by any desk of the team.',
        button: 'Check with the team ledger',
        matchTitle: 'Matches the team ledger.',
        brokenBody:
          'The team ledger was changed outside the app (directly on the server) and is no reference. Ask whoever runs the server.',
      },
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
    olderCheck: {
      heading: 'Comparison with an earlier export',
      intro:
        'If you kept an earlier export of the same ledger off this computer, compare the two: the app checks that this export’s history continues that one’s, with additions only. Only a copy kept off the computer protects against someone who can rewrite the whole ledger.',
      button: 'Compare with an earlier export…',
      checking: 'Comparing…',
      checkedAt: 'Compared at',
      olderExportedAt: 'Earlier export made at',
      olderSigner: 'Fingerprint of the key that signed the earlier export',
      verdicts: {
        extends: {
          title: 'Proven: the history only grew since the earlier export.',
          body: 'This export’s audit trail passes through entry {{olderSeq}}, the earlier export’s last, and goes on to entry {{openSeq}}. Records both carry: {{common}}; in them, the entries and what was asked for are the same. Nothing was rewritten, only added.',
        },
        head_not_carried: {
          title: 'Cannot prove it: this export does not carry the earlier one’s last entry.',
          body: 'Entry {{olderSeq}}, the earlier export’s last, is about none of this export’s records (for instance, another export made just before), so the link between the two cannot be shown. Records both carry: {{common}}; in them, nothing differs. Compare with another earlier export, or check with the ledger on the computer that exported.',
        },
        older_is_newer: {
          title: 'Cannot prove it: the export chosen as earlier is newer than this one.',
          body: 'The chosen one reaches audit entry {{olderSeq}}; this one only entry {{openSeq}}. Open the newer export and compare it with the older. If this one really is the newer, its history went back: ask whoever is responsible.',
        },
        other_signer: {
          title: 'Cannot prove it: the earlier export was signed by another key.',
          body: 'The two did not come from the same computer, or the signing key was changed between them. Confirm over another channel (phone, in person) which key each should have.',
        },
        no_audit: {
          title: 'Cannot prove it: one of the exports has no audit trail.',
          body: 'It was made by an earlier version of the app, or it does not include the records’ JSON file.',
        },
        diverged: {
          title: 'Does NOT match: the history was rewritten since the earlier export.',
          body: 'Audit entries, or what was asked for (Pix key, amount), of records both exports carry differ, or entry {{olderSeq}}, the earlier export’s last, is another. Do not rely on these records as evidence; ask whoever is responsible.',
        },
        older_not_intact: {
          title: 'Does NOT match: the earlier export did not pass verification.',
          body: 'A file in the chosen folder was altered, is missing, or is not a plain file (a link, for instance): it is no reference. The problems are in the technical details.',
        },
        open_not_intact: {
          title: 'Nothing to compare: this export did not pass verification.',
          body: 'An export that does not check out proves nothing. See the problems above.',
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
